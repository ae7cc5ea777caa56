import { useState } from 'preact/hooks';
import { get, Page } from '../api';
import { useLive } from '../live';
import { money } from '../money';
import { href } from '../router';
import { Badge, ErrorNote, Pager, SelectField, TextField, useLoad, when } from '../ui';
import { EventStream } from './card';

const STATUSES = ['', 'PENDING', 'VOIDED', 'SETTLING', 'SETTLED', 'BOUNCED', 'DECLINED', 'EXPIRED'];
const RESULTS = ['', 'APPROVED', 'DECLINED'];

/** A transaction's amount in the merchant's currency, and in the card's when they differ. */
export function TransactionAmount({ t }: { t: any }) {
  const merchant = money(t.merchant_amount, t.merchant_currency);
  if (t.merchant_currency === 'USD') return <>{merchant}</>;
  return (
    <>
      {merchant} <small>({money(t.amount)})</small>
    </>
  );
}

export function TransactionTable({ transactions }: { transactions: readonly any[] }) {
  if (transactions.length === 0) return <p>No transactions.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Merchant</th>
          <th scope="col">Amount</th>
          <th scope="col">Status</th>
          <th scope="col">Result</th>
          <th scope="col">Card</th>
        </tr>
      </thead>
      <tbody>
        {transactions.map((t) => (
          <tr key={t.token}>
            <td>
              <a href={href('transactions', t.token)}>{when(t.created)}</a>
            </td>
            <td>{t.merchant?.descriptor}</td>
            <td class="amount">
              <TransactionAmount t={t} />
            </td>
            <td>
              <Badge value={t.status} />
            </td>
            <td>{t.result}</td>
            <td>
              <a href={href('cards', t.card.token)}>•••• {t.card.last_four}</a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TransactionsPage() {
  const live = useLive();
  const [filters, setFilters] = useState({ card_token: '', account_token: '', result: '', status: '', begin: '', end: '', as_of: '', page_size: '20' });
  const [page, setPage] = useState(1);
  const list = useLoad(() => get<Page<any>>('/v1/transactions', { ...filters, page }), [JSON.stringify(filters), page, live.tick]);
  const set = (name: keyof typeof filters) => (value: string) => {
    setFilters({ ...filters, [name]: value });
    setPage(1);
  };
  return (
    <>
      <h1>Transactions</h1>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        <TextField label="Card token" value={filters.card_token} onInput={set('card_token')} />
        <TextField label="Account token" value={filters.account_token} onInput={set('account_token')} />
        <SelectField label="Result" value={filters.result} options={RESULTS} onChange={set('result')} />
        <SelectField label="Status" value={filters.status} options={STATUSES} onChange={set('status')} />
        <TextField label="Created from" type="date" value={filters.begin} onInput={set('begin')} />
        <TextField label="Created before" type="date" value={filters.end} onInput={set('end')} />
        <TextField label="As of (RFC 3339)" value={filters.as_of} onInput={set('as_of')} placeholder="2026-01-01T00:00:00Z" />
        <SelectField label="Per page" value={filters.page_size} options={['10', '20', '50', '100']} onChange={set('page_size')} />
      </form>
      <ErrorNote error={list.error} />
      {list.data && <TransactionTable transactions={list.data.data} />}
      {list.data && <Pager page={page} totalPages={list.data.total_pages} hasMore={list.data.has_more} onPage={setPage} />}
    </>
  );
}

export function TransactionPage({ token }: { token: string }) {
  const live = useLive();
  const t = useLoad(() => get(`/v1/transactions/${token}`), [token, live.tick]);
  const d = t.data;
  return (
    <>
      <p>
        <a href={href('transactions')}>All transactions</a>
      </p>
      <h1>Transaction</h1>
      <ErrorNote error={t.error} />
      {d && (
        <section aria-labelledby="tx-facts">
          <h2 id="tx-facts">{d.merchant.descriptor}</h2>
          <dl class="facts">
            <dt>Token</dt>
            <dd>
              <code>{d.token}</code>
            </dd>
            <dt>Status</dt>
            <dd>
              <Badge value={d.status} /> {d.result}
            </dd>
            <dt>Amount</dt>
            <dd>
              <TransactionAmount t={d} />
            </dd>
            <dt>Authorized</dt>
            <dd>{money(d.merchant_authorization_amount, d.merchant_currency)}</dd>
            <dt>Settled</dt>
            <dd>{money(d.settled_amount)}</dd>
            <dt>Card</dt>
            <dd>
              <a href={href('cards', d.card.token)}>•••• {d.card.last_four}</a>
            </dd>
            <dt>Created</dt>
            <dd>{when(d.created)}</dd>
          </dl>
          <h3>Network messages</h3>
          <table>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Amount</th>
                <th scope="col">Result</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {d.events.map((event: any) => (
                <tr key={event.token}>
                  <td>{event.type}</td>
                  <td class="amount">{money(event.amount)}</td>
                  <td>{event.result}</td>
                  <td>{when(event.created)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <EventStream path={`/v1/transactions/${token}/events`} tick={live.tick} />
    </>
  );
}
