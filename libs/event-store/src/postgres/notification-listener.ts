import { Client, type ClientConfig } from 'pg';
import { RetryDelays, type RetryDelayPolicy } from '@ledger/retry';

export const LISTENER_APPLICATION_NAME = 'ledger-event-store-listener';

export interface NotificationListenerOptions {
  readonly connection: ClientConfig;
  readonly channel: string;
  /** How the connection shows in pg_stat_activity; the event store's by default. */
  readonly applicationName?: string;
  /** The waits between reconnection attempts while the server stays away. */
  readonly reconnect: RetryDelayPolicy;
}

/**
 * Called with a notification's payload, or with none when notifications may have been missed: the
 * connection dropped, or it has just opened (commits made while nobody listened notified no one).
 */
export type NotificationWaker = (payload: string | undefined) => void;

/**
 * One LISTEN connection on one channel, shared by all its subscribers in this process: what the event
 * store's subscriptions, the live event streams and the read-your-writes watcher each listen with. It
 * holds its own client rather than a pool slot, opens with the first subscriber and closes with the
 * last. When the connection drops it wakes everyone (their polling covers the gap) and reconnects with
 * a growing delay; the new connection LISTENs again and wakes everyone once more.
 */
export class NotificationListener {
  private readonly wakers = new Set<NotificationWaker>();
  private client: Client | null = null;
  private connecting: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly retryDelays: RetryDelays;
  /** Bumped on shutdown so that a connection finishing afterwards closes itself. */
  private generation = 0;

  constructor(private readonly options: NotificationListenerOptions) {
    this.retryDelays = new RetryDelays(options.reconnect);
  }

  /** Registers a wake-up; returns the function that unregisters it. */
  add(wake: NotificationWaker): () => Promise<void> {
    this.wakers.add(wake);
    if (this.wakers.size === 1) this.start(this.generation);
    return async () => {
      if (!this.wakers.delete(wake)) return;
      if (this.wakers.size === 0) await this.shutdown();
    };
  }

  /** Wakes this process's subscribers directly, as a notification would. */
  wakeLocal(): void {
    this.wakeAll();
  }

  get connected(): boolean {
    return this.client !== null;
  }

  /** Settles once the connection being opened is listening or has failed (at once when none is). */
  async opening(): Promise<void> {
    await this.connecting;
  }

  async shutdown(): Promise<void> {
    this.generation += 1;
    this.wakers.clear();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    // Taken before awaiting: a subscriber added meanwhile starts a new connection that must survive.
    const connecting = this.connecting;
    const client = this.client;
    this.client = null;
    await connecting;
    await client?.end().catch(() => undefined);
  }

  private start(generation: number): void {
    this.connecting = this.connect(generation).finally(() => {
      this.connecting = null;
    });
  }

  private async connect(generation: number): Promise<void> {
    const client = new Client({ ...this.options.connection, application_name: this.options.applicationName ?? LISTENER_APPLICATION_NAME });
    // Without an 'error' listener a dropped connection would crash the process.
    client.on('error', () => this.dropped(client, generation));
    client.on('end', () => this.dropped(client, generation));
    client.on('notification', (message) => this.wakeAll(message.payload));
    try {
      await client.connect();
      await client.query(`listen "${this.options.channel}"`);
    } catch {
      await client.end().catch(() => undefined);
      if (generation === this.generation) this.scheduleReconnect(generation);
      return;
    }
    if (generation !== this.generation) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryDelays.reset();
    // Commits that happened while nobody listened sent notifications into the void.
    this.wakeAll();
  }

  private dropped(client: Client, generation: number): void {
    if (this.client !== client || generation !== this.generation) return;
    this.client = null;
    this.wakeAll();
    this.scheduleReconnect(generation);
  }

  private scheduleReconnect(generation: number): void {
    const delay = this.retryDelays.next();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (generation === this.generation) this.start(generation);
    }, delay);
  }

  private wakeAll(payload?: string): void {
    for (const wake of this.wakers) wake(payload);
  }
}
