import { randomInt, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { ledgerCodec, LedgerEvent } from '@ledger/contracts';
import { AuthorizationFacts, cardStreamId, transactionStreamId } from '@ledger/domain';
import { chainEvents, NewEvent, PostgresEventStore } from '@ledger/event-store';

/**
 * The benchmark's bulk path to a large history: approved authorizations written as exactly the
 * events the service writes for them (CardAuthorizationApproved on the card stream, then
 * TransactionAuthorized on a new transaction stream; same data, metadata and hash chain), appended
 * many streams per round trip through PostgresEventStore.appendMany. The projector then builds the
 * read models from them as from any other events.
 */
export interface SeedCard {
  readonly cardToken: string;
  readonly fundingToken: string;
}

type Appends = Parameters<PostgresEventStore['appendMany']>[0];

interface ChunkAppends {
  readonly cards: Appends;
  readonly transactions: Appends;
}

interface StreamHead {
  version: number;
  hash: string;
}

export class BulkSeeder {
  private readonly store: PostgresEventStore;
  private readonly heads = new Map<string, StreamHead>();
  private readonly codec = ledgerCodec<LedgerEvent>();

  constructor(
    pool: Pool,
    private readonly programToken: string,
    private readonly cards: readonly SeedCard[],
  ) {
    this.store = new PostgresEventStore(pool);
  }

  /**
   * Appends `transactions` authorizations spread over the cards. `writers` independent writers each
   * take their own share of the cards (a card stream has one writer, so its versions stay in order)
   * and keep one bulk append in flight, so PostgreSQL works on more than one core.
   */
  async seed(transactions: number, onProgress?: (done: number) => void, { chunk = 400, writers = 2 } = {}): Promise<void> {
    for (const card of this.cards) {
      const events = await this.store.readStream(cardStreamId(card.cardToken));
      const last = events[events.length - 1];
      this.heads.set(card.cardToken, { version: last.streamVersion, hash: String(last.metadata.hash) });
    }
    const shares = Array.from({ length: Math.min(writers, this.cards.length) }, (_, w) => this.cards.filter((_, i) => i % writers === w));
    const done = shares.map(() => 0);
    await Promise.all(
      shares.map((cards, w) => {
        const count = Math.floor(transactions / shares.length) + (w < transactions % shares.length ? 1 : 0);
        return this.seedShare(cards, count, chunk, (n) => {
          done[w] = n;
          onProgress?.(done.reduce((sum, d) => sum + d, 0));
        });
      }),
    );
    await this.store.close();
  }

  private async seedShare(cards: readonly SeedCard[], transactions: number, chunk: number, onProgress: (done: number) => void): Promise<void> {
    // Each chunk is built while the one before it is written: the seeder's CPU and PostgreSQL's overlap.
    let writing: Promise<void> = Promise.resolve();
    for (let done = 0; done < transactions; done += chunk) {
      const appends = this.buildChunk(cards, Math.min(chunk, transactions - done), done);
      await writing;
      if (done > 0) onProgress(done);
      writing = this.write(appends);
    }
    await writing;
    onProgress(transactions);
  }

  /** The card decides first, then the transaction is recorded: the same order as the service. */
  private async write({ cards, transactions }: ChunkAppends): Promise<void> {
    await this.store.appendMany(cards);
    await this.store.appendMany(transactions);
  }

  private buildChunk(cards: readonly SeedCard[], count: number, offset: number): ChunkAppends {
    const byCard = new Map<string, NewEvent[]>();
    const transactionAppends: { streamId: string; events: NewEvent[]; expected: 'no_stream' }[] = [];
    const now = Date.now();
    for (let i = 0; i < count; i++) {
      const card = cards[(offset + i) % cards.length];
      const amount = 100 + ((offset + i) % 5000);
      const at = new Date(now + i).toISOString();
      const facts: AuthorizationFacts = {
        cardToken: card.cardToken,
        programToken: this.programToken,
        transactionToken: randomUUID(),
        eventToken: randomUUID(),
        amount,
        merchant: { acceptorId: '', city: '', country: 'USA', descriptor: `Bulk ${(offset + i) % 97}`, mcc: '5999', state: '' },
        merchantAmount: amount,
        merchantCurrency: 'USD',
        authorizationCode: String(randomInt(1_000_000)).padStart(6, '0'),
        fundingToken: card.fundingToken,
        at,
      };
      const correlationId = randomUUID();
      const metadata = () => ({ eventId: randomUUID(), programToken: this.programToken, correlationId, causationId: null, occurredAt: at });
      const cardEvents = byCard.get(card.cardToken) ?? [];
      cardEvents.push(this.codec.encode({ type: 'CardAuthorizationApproved', data: facts }, metadata()));
      byCard.set(card.cardToken, cardEvents);
      const streamId = transactionStreamId(facts.transactionToken);
      transactionAppends.push({
        streamId,
        events: chainEvents(streamId, null, [this.codec.encode({ type: 'TransactionAuthorized', data: { ...facts, result: 'APPROVED' } }, metadata())]),
        expected: 'no_stream',
      });
    }
    const cardAppends = [...byCard.entries()].map(([cardToken, events]) => {
      const head = this.heads.get(cardToken) as StreamHead;
      const streamId = cardStreamId(cardToken);
      const chained = chainEvents(streamId, { streamVersion: head.version, hash: head.hash }, events);
      const expected = head.version;
      const last = chained[chained.length - 1];
      this.heads.set(cardToken, { version: head.version + chained.length, hash: String(last.metadata.hash) });
      return { streamId, events: chained, expected };
    });
    return { cards: cardAppends, transactions: transactionAppends };
  }
}
