import { evolveTransaction, TransactionEvent } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { transactionFromRow as fromRow, transactionRow as toRow } from '@ledger/read-model';
import type { ProjectionRows } from './projection-rows';
import type { Projection } from './projection';
import type { ProjectedTransactionRow } from './projection-rows';

const TRANSACTION_EVENTS = [
  'TransactionAuthorized',
  'TransactionAdvised',
  'TransactionVoided',
  'TransactionExpired',
  'TransactionCleared',
  'TransactionReturned',
  'TransactionReturnReversed',
  'TransactionDisputeWon',
  'TransactionSettled',
  'TransactionBounced',
] as const satisfies readonly TransactionEvent['type'][];

/**
 * The transactions table behind GET /v1/transactions. Each row is the aggregate's own state, folded
 * with the domain's evolve, so the list shows exactly what the transaction stream says. The row keeps
 * the stream version it has applied; an event at or below it is a repeat and is skipped.
 */
export class TransactionProjection implements Projection<TransactionEvent['type']> {
  readonly events = TRANSACTION_EVENTS;

  need(event: TransactionEvent, rows: ProjectionRows): void {
    // Every transaction event reads the row: its version tells whether the event is a repeat.
    rows.transactions.need(event.data.transactionToken);
    if (event.type === 'TransactionAuthorized' || event.type === 'TransactionReturned') {
      rows.transactionCounts.need(event.data.programToken);
      rows.transactionCounts.need(event.data.cardToken);
    }
  }

  apply(event: TransactionEvent, recorded: RecordedEvent, rows: ProjectionRows): void {
    const token = event.data.transactionToken;
    const before = rows.transactions.get(token);
    const row = transactionRowAfter(before, event, recorded.streamVersion, new Date(recorded.metadata.occurredAt));
    if (!row) return;
    rows.transactions.set(token, row);
    // A transaction's result is fixed when it is first recorded: it is counted once, then.
    if (before === null) {
      countTransaction(rows, row.programToken, row.programToken, row.result);
      countTransaction(rows, row.cardToken, row.programToken, row.result);
    }
  }
}

function countTransaction(rows: ProjectionRows, scopeToken: string, programToken: string, result: string): void {
  const count = rows.transactionCounts.get(scopeToken) ?? { scopeToken, programToken, approved: 0n, declined: 0n };
  rows.transactionCounts.set(scopeToken, result === 'APPROVED' ? { ...count, approved: count.approved + 1n } : { ...count, declined: count.declined + 1n });
}

/** The row after one event of its stream, or null when the event changes nothing (a repeat, or no transaction yet). */
export function transactionRowAfter(row: ProjectedTransactionRow | null, event: TransactionEvent, streamVersion: number, updated: Date): ProjectedTransactionRow | null {
  if (row && row.version >= streamVersion) return null;
  const state = evolveTransaction(row ? fromRow(row) : { status: 'ABSENT' }, event);
  if (state.status === 'ABSENT') return null;
  return toRow(state, streamVersion, updated);
}
