import { Logger } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { comparePositions, type EventStore, type GlobalPosition, type RecordedEvent } from '@ledger/event-store';
import { leafHash, MerkleFrontier } from '@ledger/ledger-proof';
import { type BatchTransaction, CATCH_UP_BATCH_SIZE, type FollowedHead, type KeptLeaf, LEDGER_TREE_FOLLOWER, LedgerTreeTables, type LogProcessor, loggedEvent, pgTransactions, SubscriptionProcessor } from '@ledger/runtime';


/**
 * Nobody's write waits for the tree (read-your-writes waits for the read models only, and a digest
 * names the position it covers), so commits gather a quarter of a second before they are read: on a
 * busy log the tree's fixed cost per batch (a read, a lock, its head, two inserts, the checkpoint)
 * is spread over a few hundred events instead of a dozen. Measured in docs/benchmarks.md (issue 17).
 */
const FOLLOWER_GATHER_MS = 250;

export interface LedgerTreeFollowerOptions {
  readonly batchSize?: number;
  readonly logger?: Pick<Logger, 'log' | 'error'>;
}

/**
 * Keeps the ledger-wide commitment as the log grows: follows the global log from the kept tree's
 * last leaf, hashes each event into its leaf once, and stores the leaf with the subtree roots it
 * completes from 16 leaves up (LOWEST_KEPT_LEVEL), in one transaction per batch with its checkpoint
 * (a SubscriptionProcessor). Digests and proofs then read O(log n) stored nodes (LedgerTreeTables).
 *
 * Off the authorization path: it runs with the projector, after the events are committed. Where
 * it resumes is the tree itself (its last leaf), so emptying the tables rebuilds it from the log.
 */
export class LedgerTreeFollower implements LogProcessor<PoolClient, KeptLeaf[]> {
  readonly name = LEDGER_TREE_FOLLOWER;
  readonly batchSize: number;
  readonly gatherMs = FOLLOWER_GATHER_MS;
  private readonly processor: SubscriptionProcessor<PoolClient, KeptLeaf[]>;
  /** The right edge of the kept tree; null when it must be read again (start, failed batch, another writer). */
  private frontier: MerkleFrontier | null = null;
  /** The tree's head as this batch's transaction read it (position); null outside a batch. */
  private batchHead: FollowedHead | null = null;

  constructor(
    store: EventStore,
    pool: Pool,
    private readonly tables: LedgerTreeTables,
    options: LedgerTreeFollowerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? CATCH_UP_BATCH_SIZE;
    this.processor = new SubscriptionProcessor(store, pgTransactions(pool), this, { logger: options.logger ?? new Logger(LedgerTreeFollower.name) });
  }

  start(): void {
    this.processor.start();
  }

  async stop(): Promise<void> {
    await this.processor.stop();
  }

  /** Adds one batch of the log; public so that tests can drive it. */
  async follow(events: readonly RecordedEvent[]): Promise<void> {
    try {
      await this.processor.process(events);
    } catch (error) {
      this.frontier = null;
      throw error;
    }
  }

  /**
   * Where the tree ends, read under the processor's lock at the start of each batch (the lock every
   * follower of the tree takes, standbys included), and kept for the batch's apply.
   */
  async position({ tx }: BatchTransaction<PoolClient>): Promise<GlobalPosition | null> {
    this.batchHead = await this.tables.head(tx);
    return this.batchHead.position;
  }

  /** Hashing is the batch's CPU work: done before the transaction, so nothing waits on it. */
  async prepare(events: readonly RecordedEvent[]): Promise<KeptLeaf[]> {
    return events.map((event) => ({ eventId: event.metadata.eventId, position: event.position, hash: leafHash(loggedEvent(event)) }));
  }

  async apply(events: readonly RecordedEvent[], { tx }: BatchTransaction<PoolClient>, leaves: KeptLeaf[]): Promise<void> {
    const head = this.batchHead ?? (await this.tables.head(tx));
    this.batchHead = null;
    // Another follower (a standby that took over and handed back) may have moved the tree: start from what is stored.
    if (!this.frontier || this.frontier.size !== head.size) this.frontier = MerkleFrontier.resume(head.size, await this.tables.nodes(MerkleFrontier.needs(head.size), tx));
    const first = events[0].position;
    const fresh = leaves.filter((leaf) => comparePositions(leaf.position, first) >= 0);
    const frontier = this.frontier;
    const firstIndex = frontier.size;
    const inner = fresh.flatMap((leaf) => frontier.append(leaf.hash)).filter((node) => node.level > 0);
    await this.tables.append(tx, firstIndex, fresh, inner);
  }
}
