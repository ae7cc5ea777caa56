import { isTransactionStream } from '@ledger/domain';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import type { IntegrationMessage } from '@ledger/contracts';
import { toIntegrationMessage } from './integration-messages';

/** Bound on the transaction-to-card map; the oldest entries go first. */
const DEFAULT_CACHE_SIZE = 10_000;

/**
 * The one place integration envelopes are built (Kafka publisher, webhook outbox feed): it gives
 * every card and transaction event its `card_token`. A transaction's later events (advice, void,
 * clearing, settlement, bounce) do not repeat the card in their data, but the transaction aggregate
 * fixes its card once, with its opening event (`TransactionAuthorized` or `TransactionReturned`,
 * whose facts name the card; no other event can open a transaction stream). So the card of any
 * transaction event is the card of its stream's first event: remembered when that event passes by,
 * read from the store when the batch starts mid-stream (after a restart, or past the cache).
 */
export class IntegrationEnvelopes {
  private readonly transactionCards = new Map<string, string>();

  constructor(
    private readonly store: Pick<EventStore, 'readStream'>,
    private readonly cacheSize = DEFAULT_CACHE_SIZE,
  ) {}

  /** The envelopes of a batch, in its order. */
  async envelopesOf(events: readonly RecordedEvent[]): Promise<IntegrationMessage[]> {
    const envelopes: IntegrationMessage[] = [];
    for (const recorded of events) envelopes.push(await this.envelopeOf(recorded));
    return envelopes;
  }

  async envelopeOf(recorded: RecordedEvent): Promise<IntegrationMessage> {
    return toIntegrationMessage(recorded, await this.cardOf(recorded));
  }

  private async cardOf(recorded: RecordedEvent): Promise<string | null> {
    const named = namedCard(recorded);
    if (!isTransactionStream(recorded.streamId)) return named;
    if (named !== null) {
      this.remember(recorded.streamId, named);
      return named;
    }
    return this.transactionCards.get(recorded.streamId) ?? (await this.openingCard(recorded.streamId));
  }

  private async openingCard(streamId: string): Promise<string> {
    const [opening] = await this.store.readStream(streamId, { maxCount: 1 });
    const card = opening ? namedCard(opening) : null;
    // The domain never opens a transaction without its card; a log that does is broken, and an
    // envelope without its card is exactly what consumers must be able to rule out.
    if (card === null) throw new Error(`transaction stream ${streamId} does not open with an event naming its card`);
    this.remember(streamId, card);
    return card;
  }

  private remember(streamId: string, cardToken: string): void {
    if (this.transactionCards.has(streamId)) return;
    if (this.transactionCards.size >= this.cacheSize) {
      const oldest = this.transactionCards.keys().next().value;
      if (oldest !== undefined) this.transactionCards.delete(oldest);
    }
    this.transactionCards.set(streamId, cardToken);
  }
}

function namedCard(recorded: RecordedEvent): string | null {
  const cardToken = (recorded.data as { cardToken?: unknown } | null)?.cardToken;
  return typeof cardToken === 'string' ? cardToken : null;
}
