import { decodeEvent } from '@ledger/contracts';
import { cardDecider, type Card, type CardEvent } from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import { cardUpdateBetween, type CardUpdatableFields, type CardUpdate } from '@ledger/read-model';

/** Where an event is: its stream and version (a recorded event, or an integration envelope's stream_id and stream_version). */
export interface EventAt {
  readonly streamId: string;
  readonly streamVersion: number;
}

/** The card's fields as the API names them, for those a card.updated event can change. */
function apiFields(card: Card): CardUpdatableFields | null {
  if (card.status !== 'issued') return null;
  return {
    state: card.state,
    memo: card.memo,
    spend_limit: card.spendLimit,
    spend_limit_duration: card.spendLimitDuration,
    funding_token: card.fundingToken,
    hostname: card.hostname,
  };
}

/**
 * The card.updated facts of a card event, from the card's own events up to it: the body shows this
 * event's change even when the read models have moved on (a pause and a resume in one batch give two
 * bodies, PAUSED then OPEN).
 */
export async function cardUpdateOf(store: Pick<EventStore, 'readStream'>, event: EventAt): Promise<CardUpdate> {
  const history = await store.readStream(event.streamId, { maxCount: event.streamVersion + 1 });
  const last = history[history.length - 1];
  if (!last || last.streamVersion !== event.streamVersion) throw new Error(`${event.streamId} has no event at version ${event.streamVersion}`);
  let before = cardDecider.initialState();
  for (const earlier of history.slice(0, -1)) before = cardDecider.evolve(before, decodeEvent(earlier) as CardEvent);
  const after = cardDecider.evolve(before, decodeEvent(last) as CardEvent);
  return cardUpdateBetween(apiFields(before), apiFields(after));
}
