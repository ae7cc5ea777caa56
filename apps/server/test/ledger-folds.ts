import type { Pool } from 'pg';
import { ledgerCodec, LedgerEvent } from '@ledger/contracts';
import { Card, cardDecider, cardStreamId, countedSpend, Transaction, transactionDecider, transactionStreamId } from '@ledger/domain';
import { PostgresEventStore } from '@ledger/event-store';

/** A stream folded straight from the event table, with the domain's own evolve. */
async function fold<State, Event extends LedgerEvent>(pool: Pool, decider: { initialState: () => State; evolve: (state: State, event: Event) => State }, streamId: string): Promise<State> {
  const codec = ledgerCodec<Event>();
  return (await new PostgresEventStore(pool).readStream(streamId)).map((recorded) => codec.decode(recorded)).reduce(decider.evolve, decider.initialState());
}

/**
 * The invariant every use case on a card's spend keeps: the card counts exactly the amount the
 * transaction says it counts (its amount; nothing for a credit still waiting for its clearing).
 * Answers both, from the streams themselves.
 */
export async function cardAndTransactionAmounts(pool: Pool, cardToken: string, transactionToken: string): Promise<{ card: number | undefined; transaction: number | undefined }> {
  const [card, transaction] = await Promise.all([
    fold<Card, never>(pool, cardDecider as never, cardStreamId(cardToken)),
    fold<Transaction, never>(pool, transactionDecider as never, transactionStreamId(transactionToken)),
  ]);
  return {
    // + 0: a credit of 0 folds to -0, the same amount.
    card: card.status === 'issued' ? plusZero(card.spend.get(transactionToken)?.amount) : undefined,
    transaction: transaction.status === 'ABSENT' ? undefined : countedSpend(transaction),
  };
}

function plusZero(amount: number | undefined): number | undefined {
  return amount === undefined ? undefined : amount + 0;
}
