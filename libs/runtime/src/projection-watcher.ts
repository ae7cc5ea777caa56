import { Pool } from 'pg';
import { comparePositions, GlobalPosition, NotificationListener, parsePosition } from '@ledger/event-store';
import { LISTEN_RECONNECT } from './listen-reconnect';

/** The channel the projector notifies, in the transaction that moves its checkpoint. */
export const PROJECTION_CHANNEL = 'ledger_projection';
export const READ_MODEL_PROJECTOR = 'read-models';
export const PROJECTION_LISTENER_APPLICATION_NAME = 'ledger-projection-listener';

export class ReadModelBehind extends Error {
  static readonly code = 'read_model_behind';
  constructor(position: GlobalPosition, timeoutMs: number) {
    super(`The read models did not reach position ${position.commit}/${position.prepare} within ${timeoutMs} ms`);
    this.name = 'ReadModelBehind';
  }
}

interface Waiter {
  readonly position: GlobalPosition;
  readonly resolve: () => void;
}

/**
 * Read-your-writes: a write answers only once the read models include it. The projector notifies
 * each checkpoint it commits (the position is the payload); a slow poll of the checkpoint row covers
 * a lost notification, and the row is read again whenever the LISTEN connection drops or reopens.
 * Works the same whether the projector runs in this process or another.
 */
export class ProjectionWatcher {
  private reached: GlobalPosition | null = null;
  private readonly waiters = new Set<Waiter>();
  private readonly listener: NotificationListener;
  private poller: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly projector = READ_MODEL_PROJECTOR,
    private readonly pollMs = 200,
  ) {
    this.listener = new NotificationListener({
      connection: pool.options,
      channel: PROJECTION_CHANNEL,
      applicationName: PROJECTION_LISTENER_APPLICATION_NAME,
      reconnect: LISTEN_RECONNECT,
    });
  }

  async start(): Promise<void> {
    this.listener.add((payload) => this.notified(payload));
    await this.listener.opening();
    try {
      await this.refresh();
    } catch (error) {
      // A watcher that cannot start is not stopped by anyone: its reconnection attempts end here.
      await this.listener.shutdown();
      throw error;
    }
    this.poller = setInterval(() => void this.refresh().catch(() => undefined), this.pollMs);
    this.poller.unref();
  }

  async stop(): Promise<void> {
    if (this.poller) clearInterval(this.poller);
    await this.listener.shutdown();
  }

  async waitFor(position: GlobalPosition, timeoutMs: number): Promise<void> {
    if (this.hasReached(position)) return;
    // While listening, every checkpoint the projector commits arrives here: asking the table as
    // well would cost each write a query for nothing. Without the listener, ask before waiting.
    if (!this.listener.connected) {
      await this.refresh();
      if (this.hasReached(position)) return;
    }
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new ReadModelBehind(position, timeoutMs));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  private hasReached(position: GlobalPosition): boolean {
    return this.reached !== null && comparePositions(this.reached, position) >= 0;
  }

  private advance(position: GlobalPosition): void {
    if (this.reached !== null && comparePositions(position, this.reached) <= 0) return;
    this.reached = position;
    for (const waiter of this.waiters) {
      if (this.hasReached(waiter.position)) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  private async refresh(): Promise<void> {
    const result = await this.pool.query<{ commit_position: string; prepare_position: string }>(
      'select commit_position::text, prepare_position::text from projector_checkpoints where name = $1',
      [this.projector],
    );
    const row = result.rows[0];
    if (row) this.advance({ commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) });
  }

  private notified(payload: string | undefined): void {
    // No payload: checkpoints may have been committed while nobody listened; the row has the latest.
    if (payload === undefined) {
      void this.refresh().catch(() => undefined);
      return;
    }
    const [name, position] = payload.split('|');
    if (name === this.projector && position) this.advance(parsePosition(position));
  }
}
