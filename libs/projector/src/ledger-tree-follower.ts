import { Logger } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { comparePositions, type EventStore, formatPosition, type GlobalPosition, type RecordedEvent, restartingSubscription } from '@ledger/event-store';
import { leafHash, MerkleFrontier } from '@ledger/ledger-proof';
import { type KeptLeaf, LEDGER_TREE_FOLLOWER, LedgerTreeTables, loggedEvent, PROJECTION_CHANNEL } from '@ledger/runtime';

/** Events per batch while catching up; live batches hold what was appended since the last one. */
const FOLLOWER_BATCH_SIZE = 2000;

/**
 * Nobody's write waits for the tree (read-your-writes waits for the read models only), so commits
 * may gather a little before they are read: fewer, larger batches on a busy log.
 */
const FOLLOWER_GATHER_MS = 20;

export interface LedgerTreeFollowerOptions {
  readonly batchSize?: number;
  readonly logger?: Pick<Logger, 'log' | 'error'>;
}

/**
 * Keeps the ledger-wide commitment as the log grows: follows the global log from the kept tree's
 * last leaf, hashes each event into its leaf once, and stores the leaf with every subtree root it
 * completes, in one transaction per batch (the projector_checkpoints row moves and notifies in the
 * same transaction). Digests and proofs then read O(log n) stored nodes (LedgerTreeTables).
 *
 * Off the authorization path: it runs with the projector, after the events are committed. Where
 * it resumes is the tree itself (its last leaf), so emptying the tables rebuilds it from the log.
 */
export class LedgerTreeFollower {
  private readonly logger: Pick<Logger, 'log' | 'error'>;
  private subscription: { stop(): Promise<void> } | null = null;
  /** The right edge of the kept tree; null when it must be read again (start, failed batch, another writer). */
  private frontier: MerkleFrontier | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly pool: Pool,
    private readonly tables: LedgerTreeTables,
    private readonly options: LedgerTreeFollowerOptions = {},
  ) {
    this.logger = options.logger ?? new Logger(LedgerTreeFollower.name);
  }

  start(): void {
    this.subscription = restartingSubscription({
      store: this.store,
      checkpoint: async () => {
        const head = await this.tables.head();
        this.logger.log(`ledger tree: following from ${head.size} leaves (${head.position ? formatPosition(head.position) : 'the start of the log'})`);
        return head.position;
      },
      handle: (events) => this.follow(events),
      batchSize: this.options.batchSize ?? FOLLOWER_BATCH_SIZE,
      gatherMs: FOLLOWER_GATHER_MS,
      onError: (error) => this.logger.error(`ledger tree interrupted, resuming from its last leaf: ${String(error)}`),
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }

  /** Adds one batch of the log; public so that tests can drive it. */
  async follow(events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    // Hashing is the batch's CPU work: done before the transaction, so the lock is held for writes only.
    const leaves: KeptLeaf[] = events.map((event) => ({ eventId: event.metadata.eventId, position: event.position, hash: leafHash(loggedEvent(event)) }));
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin');
      await this.appendLocked(client, leaves);
      await client.query('commit');
    } catch (error) {
      this.frontier = null;
      await client.query('rollback').catch((rollbackFailure: unknown) => {
        broken = rollbackFailure instanceof Error ? rollbackFailure : new Error(String(rollbackFailure));
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  private async appendLocked(client: PoolClient, leaves: readonly KeptLeaf[]): Promise<void> {
    await this.tables.lockForAppend(client);
    const head = await this.tables.head(client);
    // Another follower (a standby that took over and handed back) may have moved the tree: start from what is stored.
    if (!this.frontier || this.frontier.size !== head.size) this.frontier = MerkleFrontier.resume(head.size, await this.tables.nodes(MerkleFrontier.needs(head.size), client));
    const fresh = head.position ? leaves.filter((leaf) => comparePositions(leaf.position, head.position as GlobalPosition) > 0) : leaves;
    if (fresh.length === 0) return;
    const frontier = this.frontier;
    const firstIndex = frontier.size;
    const inner = fresh.flatMap((leaf) => frontier.append(leaf.hash)).filter((node) => node.level > 0);
    await this.tables.append(client, firstIndex, fresh, inner);
    const last = fresh[fresh.length - 1].position;
    await client.query(
      `with saved as (
         insert into projector_checkpoints (name, commit_position, prepare_position, updated)
         values ($1, $2::bigint, $3::bigint, now())
         on conflict (name) do update
           set commit_position = excluded.commit_position, prepare_position = excluded.prepare_position, updated = excluded.updated
         returning name)
       select pg_notify($4, $5) from saved`,
      [LEDGER_TREE_FOLLOWER, last.commit.toString(), last.prepare.toString(), PROJECTION_CHANNEL, `${LEDGER_TREE_FOLLOWER}|${formatPosition(last)}`],
    );
  }
}
