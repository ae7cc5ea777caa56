import { decodeEvent } from '@ledger/contracts';
import { BALANCE_STATUSES, evolveTransaction, hasStatusIn, isTransactionStream, Transaction, TransactionEvent } from '@ledger/domain';
import { comparePositions, EventStore, GlobalPosition } from '@ledger/event-store';
import { LedgerTotals, ledgerTotals, type LedgerTotalsBy } from '@ledger/gateway';
import type { ReadModelClient } from '@ledger/read-model';

export interface LedgerMismatch {
  readonly by: LedgerTotalsBy;
  readonly token: string;
  readonly fromEvents: Record<keyof LedgerTotals, string>;
  readonly shown: Record<keyof LedgerTotals, string>;
}

const ZERO: LedgerTotals = { pending: 0n, settled: 0n, settlementComplete: 0n, bounced: 0n };

function add(totals: Map<string, LedgerTotals>, key: string, state: Exclude<Transaction, { status: 'ABSENT' }>): void {
  const current = totals.get(key) ?? { ...ZERO };
  const settled = BigInt(state.settledAmount);
  if (hasStatusIn(BALANCE_STATUSES.pending, state.status)) current.pending += BigInt(state.amount);
  if (hasStatusIn(BALANCE_STATUSES.settled, state.status)) current.settled += settled;
  if (hasStatusIn(BALANCE_STATUSES.settlementComplete, state.status)) current.settlementComplete += settled;
  if (hasStatusIn(BALANCE_STATUSES.bounced, state.status)) current.bounced += settled;
  totals.set(key, current);
}

const text = (totals: LedgerTotals) => ({
  pending: String(totals.pending),
  settled: String(totals.settled),
  settlementComplete: String(totals.settlementComplete),
  bounced: String(totals.bounced),
});

/**
 * The ledger view's totals, recomputed from the transaction events alone (up to where the read
 * models have been projected), against what the API shows per card, per funding source and per
 * program: the program's are what its financial account's balance is made of (`/v1/balances`,
 * `/v1/financial_accounts/{token}/balances`), a card's what its `/balance` and `/balances` show.
 */
export async function checkLedger(store: EventStore, readModel: ReadModelClient, until: GlobalPosition | null): Promise<LedgerMismatch[]> {
  const transactions = new Map<string, Transaction>();
  let after: GlobalPosition | null = null;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 2000 });
    const upTo = batch.filter((event) => until !== null && comparePositions(event.position, until) <= 0);
    for (const recorded of upTo) {
      if (!isTransactionStream(recorded.streamId)) continue;
      const event = decodeEvent(recorded) as TransactionEvent;
      transactions.set(recorded.streamId, evolveTransaction(transactions.get(recorded.streamId) ?? { status: 'ABSENT' }, event));
    }
    if (upTo.length < batch.length || batch.length === 0) break;
    after = batch[batch.length - 1].position;
  }
  const byCard = new Map<string, LedgerTotals>();
  const byFunding = new Map<string, LedgerTotals>();
  const byProgram = new Map<string, LedgerTotals>();
  for (const state of transactions.values()) {
    if (state.status === 'ABSENT') continue;
    add(byCard, state.cardToken, state);
    add(byFunding, state.fundingToken, state);
    add(byProgram, state.programToken, state);
  }
  const mismatches: LedgerMismatch[] = [];
  for (const [by, fromEvents] of [['card_token', byCard], ['funding_token', byFunding], ['program_token', byProgram]] as const) {
    const shown = await ledgerTotals(readModel, by);
    for (const token of new Set([...fromEvents.keys(), ...shown.keys()])) {
      const a = text(fromEvents.get(token) ?? ZERO);
      const b = text(shown.get(token) ?? ZERO);
      if (JSON.stringify(a) !== JSON.stringify(b)) mismatches.push({ by, token, fromEvents: a, shown: b });
    }
  }
  return mismatches;
}
