import type { Pool } from 'pg';
import type { ListTransactionsQuery } from '@ledger/contracts';
import type { Transaction } from '@ledger/read-model';
import type { ListKey, ListRead } from '../listing/paging';

/** The read model's columns as the Transaction row's fields, and which come back from pg as text of a bigint. */
const COLUMNS: readonly (readonly [field: keyof Transaction, column: string, bigint?: true])[] = [
  ['token', 'token'],
  ['programToken', 'program_token'],
  ['cardToken', 'card_token'],
  ['fundingToken', 'funding_token'],
  ['status', 'status'],
  ['result', 'result'],
  ['amount', 'amount', true],
  ['authorizationAmount', 'authorization_amount', true],
  ['settledAmount', 'settled_amount', true],
  ['merchantAmount', 'merchant_amount', true],
  ['merchantAuthorizationAmount', 'merchant_authorization_amount', true],
  ['merchantCurrency', 'merchant_currency'],
  ['acquirerFee', 'acquirer_fee', true],
  ['rateAmount', 'rate_amount', true],
  ['rateMerchantAmount', 'rate_merchant_amount', true],
  ['authorizationCode', 'authorization_code'],
  ['merchantAcceptorId', 'merchant_acceptor_id'],
  ['merchantCity', 'merchant_city'],
  ['merchantCountry', 'merchant_country'],
  ['merchantDescriptor', 'merchant_descriptor'],
  ['merchantMcc', 'merchant_mcc'],
  ['merchantState', 'merchant_state'],
  ['events', 'events'],
  ['version', 'version'],
  ['created', 'created'],
  ['updated', 'updated'],
];

const SELECTED = COLUMNS.map(([field, column]) => (field === column ? column : `${column} as "${field}"`)).join(', ');
const BIGINTS = COLUMNS.filter(([, , bigint]) => bigint).map(([field]) => field);

export interface TransactionPageRequest extends ListRead<ListKey> {
  readonly programToken: string;
  readonly filter: ListTransactionsQuery['filter'];
}

/**
 * A page of a program's transactions straight from PostgreSQL: one prepared statement per shape of
 * filter, rows turned into the read model's Transaction (bigints as bigint) without the ORM, which
 * costs about twice the statement's own time per page (docs/benchmarks.md). The rows and their order
 * are those of the equivalent Prisma query: the filter, then (created, token) oldest first (newest
 * first when read backwards), keyset or offset.
 */
export async function transactionPage(pool: Pool, request: TransactionPageRequest): Promise<Transaction[]> {
  const { filter } = request;
  const values: unknown[] = [request.programToken];
  const where = ['program_token = $1'];
  const shape: string[] = [];
  const add = (condition: (at: string) => string, value: unknown, name: string) => {
    values.push(value);
    where.push(condition(`$${values.length}`));
    shape.push(name);
  };
  if (filter.cardToken) add((at) => `card_token = ${at}::uuid`, filter.cardToken, 'card');
  if (filter.result === 'APPROVED') add((at) => `result = ${at}`, 'APPROVED', 'approved');
  if (filter.result === 'DECLINED') add((at) => `result <> ${at}`, 'APPROVED', 'declined');
  if (filter.status) add((at) => `status = ${at}`, filter.status, 'status');
  if (filter.createdFrom) add((at) => `created >= ${at}`, filter.createdFrom, 'from');
  if (filter.createdBefore) add((at) => `created < ${at}`, filter.createdBefore, 'before');
  const direction = request.backwards ? 'desc' : 'asc';
  if (request.after) {
    const comparison = request.backwards ? '<' : '>';
    values.push(request.after.at, request.after.tie);
    where.push(`(created, token) ${comparison} ($${values.length - 1}, $${values.length}::uuid)`);
    shape.push(`after${comparison}`);
  }
  values.push(request.take, request.skip ?? 0);
  const text =
    `select ${SELECTED} from transactions where ${where.join(' and ')} ` +
    `order by created ${direction}, token ${direction} limit $${values.length - 1} offset $${values.length}`;
  const { rows } = await pool.query({ name: `transaction-page:${direction}:${shape.join(',')}`, text, values });
  for (const row of rows) for (const field of BIGINTS) row[field] = BigInt(row[field]);
  return rows as Transaction[];
}
