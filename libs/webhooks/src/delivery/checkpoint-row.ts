import type { GlobalPosition } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';

/**
 * A follower's place in the log, kept as its row of projector_checkpoints, for the followers that
 * write their rows and their checkpoint in one transaction (the webhook outbox, the events feed).
 * Read with `lock` inside that transaction, so one writer at a time moves it.
 */
export class CheckpointRow {
  constructor(readonly name: string) {}

  async read(client: ReadModelClient | ReadModelTransaction, lock = false): Promise<GlobalPosition | null> {
    const rows = await client.$queryRawUnsafe<{ commit: string; prepare: string }[]>(
      `select commit_position::text as commit, prepare_position::text as prepare
         from projector_checkpoints where name = $1 ${lock ? 'for update' : ''}`,
      this.name,
    );
    return rows[0] ? { commit: BigInt(rows[0].commit), prepare: BigInt(rows[0].prepare) } : null;
  }

  async save(tx: ReadModelTransaction, position: GlobalPosition): Promise<void> {
    const row = { commitPosition: position.commit, preparePosition: position.prepare, updated: new Date() };
    await tx.projectorCheckpoint.upsert({ where: { name: this.name }, create: { name: this.name, ...row }, update: row });
  }
}
