import { Fragment } from 'preact';
import { get } from '../api';
import { EventStream } from '../event-stream';
import { Column, DataTable } from '../data-table';
import { Facts } from '../facts';
import { useLive } from '../live';
import { money } from '../money';
import { ListFilters, ListPager, usePagedList } from '../paged-list';
import { href } from '../router';
import { TransactionDispute } from '../transaction-dispute';
import { Badge, ErrorNote, SelectField, TextField, useLoad, when } from '../ui';

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

const TRANSACTION_COLUMNS: Column<any>[] = [
  { header: 'Created', cell: (t) => <a href={href('transactions', t.token)}>{when(t.created)}</a> },
  { header: 'Merchant', cell: (t) => t.merchant?.descriptor },
  { header: 'Amount', class: 'amount', cell: (t) => <TransactionAmount t={t} /> },
  { header: 'Status', cell: (t) => <Badge value={t.status} /> },
  { header: 'Result', cell: (t) => t.result },
  { header: 'Card', cell: (t) => <a href={href('cards', t.card.token)}>•••• {t.card.last_four}</a> },
];

export function TransactionTable({ transactions }: { transactions: readonly any[] }) {
  if (transactions.length === 0) return <p>No transactions.</p>;
  return <DataTable columns={TRANSACTION_COLUMNS} rows={transactions} keyOf={(t) => t.token} />;
}

export function TransactionsPage() {
  const paged = usePagedList('/v1/transactions', { card_token: '', account_token: '', result: '', status: '', begin: '', end: '', as_of: '', page_size: '20' });
  const { list, filters, set } = paged;
  return (
    <>
      <h1>Transactions</h1>
      <ListFilters paged={paged}>
        <TextField label="Card token" value={filters.card_token} onInput={set('card_token')} />
        <TextField label="Account token" value={filters.account_token} onInput={set('account_token')} />
        <SelectField label="Result" value={filters.result} options={RESULTS} onChange={set('result')} />
        <SelectField label="Status" value={filters.status} options={STATUSES} onChange={set('status')} />
        <TextField label="Created from" type="date" value={filters.begin} onInput={set('begin')} />
        <TextField label="Created before" type="date" value={filters.end} onInput={set('end')} />
        <TextField label="As of (RFC 3339)" value={filters.as_of} onInput={set('as_of')} placeholder="2026-01-01T00:00:00Z" />
      </ListFilters>
      <ErrorNote error={list.error} />
      {list.data && <TransactionTable transactions={list.data.data} />}
      <ListPager paged={paged} />
    </>
  );
}

const NETWORK_MESSAGE_COLUMNS: Column<any>[] = [
  { header: 'Type', cell: (event) => event.type },
  { header: 'Amount', class: 'amount', cell: (event) => money(event.amount) },
  { header: 'Result', cell: (event) => event.result },
  // The enforced rules that refused the message (Lithic's `rule_results`), with the detailed result.
  {
    header: 'Declined by rule',
    cell: (event) => <RuleLinks rules={(event.rule_results ?? []).map((rule: any) => ({ token: rule.auth_rule_token, name: rule.name || rule.auth_rule_token, note: rule.result }))} />,
  },
  { header: 'Created', cell: (event) => when(event.created) },
];

interface RuleLink {
  readonly token: string;
  readonly name: string;
  /** Said after the link: the rule's detailed result. */
  readonly note?: string;
}

/** Auth rules, each a link to its page. */
function RuleLinks({ rules, none = '' }: { rules: readonly RuleLink[]; none?: string }) {
  if (rules.length === 0) return <>{none}</>;
  return (
    <>
      {rules.map((rule, at) => (
        <Fragment key={rule.token}>
          {at > 0 && ', '}
          <a href={href('rules', rule.token)}>{rule.name}</a>
          {rule.note && ` (${rule.note})`}
        </Fragment>
      ))}
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
          <Facts
            facts={[
              ['Token', <code>{d.token}</code>],
              [
                'Status',
                <>
                  <Badge value={d.status} /> {d.result}
                </>,
              ],
              ['Amount', <TransactionAmount t={d} />],
              ['Authorized', money(d.merchant_authorization_amount, d.merchant_currency)],
              ['Settled', money(d.settled_amount)],
              ['Card', <a href={href('cards', d.card.token)}>•••• {d.card.last_four}</a>],
              ['Auth rules that ran', <RuleLinks rules={(d.card.auth_rule_tokens ?? []).map((token: string) => ({ token, name: token }))} none="none" />],
              ['Created', when(d.created)],
            ]}
          />
          <h3>Network messages</h3>
          <DataTable columns={NETWORK_MESSAGE_COLUMNS} rows={d.events} keyOf={(event) => event.token} />
        </section>
      )}
      {d && <TransactionDispute transaction={d} tick={live.tick} />}
      <EventStream path={`/v1/transactions/${token}/events`} tick={live.tick} />
    </>
  );
}
