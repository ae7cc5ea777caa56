import { useState } from 'preact/hooks';
import { AccountBalance, AccountBalanceFacts } from '../account-balance';
import { get, Page } from '../api';
import { Column, DataTable } from '../data-table';
import { Facts } from '../facts';
import { useLive } from '../live';
import { money } from '../money';
import { ListFilters, ListPager, usePagedList } from '../paged-list';
import { href } from '../router';
import { Badge, ErrorNote, SelectField, useLoad, when } from '../ui';

/** A financial account as the API answers it (Lithic's FinancialAccount; only what is shown). */
interface FinancialAccount {
  readonly token: string;
  readonly type: string;
  readonly status: string;
  readonly nickname: string | null;
  readonly created: string;
}

type ListedBalance = AccountBalance & { readonly financial_account_token: string };

const STATUSES = ['', 'PENDING', 'SETTLED', 'VOIDED', 'EXPIRED', 'RETURNED', 'DECLINED'];
const RESULTS = ['', 'APPROVED', 'DECLINED'];

/** The program's financial accounts, each with its balance; the chosen one's financial transactions and statements. */
export function MoneyPage() {
  const live = useLive();
  const accounts = useLoad(() => get<{ data: FinancialAccount[] }>('/v1/financial_accounts'), [live.tick]);
  const balances = useLoad(() => get<{ data: ListedBalance[] }>('/v1/balances'), [live.tick]);
  const [chosen, choose] = useState<string | null>(null);
  const shown = accounts.data?.data.find((account) => account.token === chosen) ?? accounts.data?.data[0];
  return (
    <>
      <h1>Financial accounts</h1>
      <p>The money the program's cards move, from the account's side: spending is negative, what pending authorizations hold is pending. Every figure is summed from the ledger's events.</p>
      <ErrorNote error={accounts.error ?? balances.error} />
      {accounts.data?.data.map((account) => (
        <AccountSection
          key={account.token}
          account={account}
          balance={balances.data?.data.find((balance) => balance.financial_account_token === account.token)}
          shown={account.token === shown?.token}
          onShow={() => choose(account.token)}
        />
      ))}
      {shown && <FinancialTransactions key={shown.token} account={shown} />}
      {shown && <Statements key={`statements-${shown.token}`} account={shown} tick={live.tick} />}
    </>
  );
}

function accountName(account: FinancialAccount): string {
  return account.nickname || `${account.type.charAt(0)}${account.type.slice(1).toLowerCase()} account`;
}

function AccountSection(props: { account: FinancialAccount; balance: AccountBalance | undefined; shown: boolean; onShow: () => void }) {
  const { account } = props;
  const id = `account-${account.token}`;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{accountName(account)}</h2>
      <Facts
        facts={[
          ['Type', account.type],
          ['Status', <Badge value={account.status} />],
          ['Token', <code>{account.token}</code>],
          ['Created', when(account.created)],
        ]}
      />
      <h3>Balance</h3>
      {props.balance && <AccountBalanceFacts balance={props.balance} />}
      {!props.shown && (
        <button type="button" onClick={props.onShow}>
          Show its transactions
        </button>
      )}
    </section>
  );
}

const TRANSACTION_COLUMNS: Column<any>[] = [
  // A card's financial transaction has the card transaction's token: the link opens that one.
  { header: 'Created', cell: (t) => (t.category === 'CARD' ? <a href={href('transactions', t.token)}>{when(t.created)}</a> : when(t.created)) },
  { header: 'Descriptor', cell: (t) => t.descriptor },
  { header: 'Category', cell: (t) => t.category },
  { header: 'Status', cell: (t) => <Badge value={t.status} /> },
  { header: 'Result', cell: (t) => t.result },
  { header: 'Pending', class: 'amount', cell: (t) => money(t.pending_amount, t.currency) },
  { header: 'Settled', class: 'amount', cell: (t) => money(t.settled_amount, t.currency) },
  { header: 'Events', cell: (t) => (t.events ?? []).map((event: { type: string }) => event.type).join(', ') },
];

function FinancialTransactions({ account }: { account: FinancialAccount }) {
  const paged = usePagedList(`/v1/financial_accounts/${account.token}/financial_transactions`, { status: '', result: '', page_size: '20' });
  const { list, filters, set } = paged;
  return (
    <section aria-labelledby="financial-transactions">
      <h2 id="financial-transactions">Financial transactions of the {accountName(account).toLowerCase()}</h2>
      <ListFilters paged={paged}>
        <SelectField label="Status" value={filters.status} options={STATUSES} onChange={set('status')} />
        <SelectField label="Result" value={filters.result} options={RESULTS} onChange={set('result')} />
      </ListFilters>
      <ErrorNote error={list.error} />
      {list.data && list.data.data.length === 0 && <p>No financial transactions.</p>}
      {list.data && list.data.data.length > 0 && <DataTable columns={TRANSACTION_COLUMNS} rows={list.data.data} keyOf={(t) => t.token} labelledBy="financial-transactions" />}
      <ListPager paged={paged} />
    </section>
  );
}

const STATEMENT_COLUMNS: Column<any>[] = [
  { header: 'Month', cell: (s) => `${s.statement_start_date} to ${s.statement_end_date}` },
  { header: 'Starting balance', class: 'amount', cell: (s) => money(s.starting_balance) },
  { header: 'Purchases', class: 'amount', cell: (s) => money(s.period_totals?.purchases) },
  { header: 'Credits', class: 'amount', cell: (s) => money(s.period_totals?.credits) },
  { header: 'Ending balance', class: 'amount', cell: (s) => money(s.ending_balance) },
];

/** One statement a month that has ended by the program's clock (the test clock shows one now). */
function Statements({ account, tick }: { account: FinancialAccount; tick: number }) {
  const statements = useLoad(() => get<Page<any>>(`/v1/financial_accounts/${account.token}/statements`, { page_size: 24 }), [account.token, tick]);
  return (
    <section aria-labelledby="statements">
      <h2 id="statements">Statements</h2>
      <ErrorNote error={statements.error} />
      {statements.data && statements.data.data.length === 0 && (
        <p>
          No month has ended yet by the program's clock (<a href={href('clock')}>move the test clock</a> to see one).
        </p>
      )}
      {statements.data && statements.data.data.length > 0 && <DataTable columns={STATEMENT_COLUMNS} rows={statements.data.data} keyOf={(s) => s.token} labelledBy="statements" />}
    </section>
  );
}
