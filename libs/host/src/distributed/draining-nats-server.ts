import { ServerNats } from '@nestjs/microservices';
import type { NatsConnection, Subscription } from 'nats';
import { InFlightWork } from './in-flight-work';

type NatsServerOptions = ConstructorParameters<typeof ServerNats>[0];

/**
 * Nest's NATS server, with a shutdown that loses nothing in flight. Nest's own graceful close
 * unsubscribes and then waits a fixed grace period; this one drains its subscriptions (the server
 * stops routing to this replica, and messages already on their way are still delivered), waits until
 * every command it took has answered, flushes the answers, and only then lets the connection close.
 */
export class DrainingNatsServer extends ServerNats {
  private readonly subscribed: Subscription[] = [];
  private readonly inFlight = new InFlightWork();
  private connection: NatsConnection | null = null;

  constructor(private readonly natsOptions: NatsServerOptions) {
    super(natsOptions);
  }

  /** Same subscriptions as Nest's (one per pattern, in the pattern's queue group), but kept for draining. */
  override bindEvents(client: NatsConnection): void {
    this.connection = client;
    const defaultQueue = this.natsOptions?.queue;
    for (const [channel, handler] of this.messageHandlers) {
      const queue = (handler.extras?.queue as string | undefined) ?? defaultQueue;
      this.subscribed.push(client.subscribe(channel, { queue, callback: this.getMessageHandler(channel).bind(this) }));
    }
  }

  override async handleMessage(channel: string, message: unknown): Promise<unknown> {
    this.inFlight.started();
    try {
      return await super.handleMessage(channel, message);
    } finally {
      this.inFlight.finished();
    }
  }

  get connected(): boolean {
    return this.connection !== null && !this.connection.isClosed() && !this.connection.isDraining();
  }

  /** Takes no further message, and resolves once those already taken have answered (or the time is up). */
  async stopIntake(timeoutMs: number): Promise<{ unfinished: number }> {
    await Promise.all(this.subscribed.map((subscription) => subscription.drain().catch(() => undefined)));
    const unfinished = await this.inFlight.settled(timeoutMs);
    // Nest hands a handler's answer to the connection on the next tick (Server.send), after the
    // handler's promise has settled: let those answers be queued before the PING of the flush, so that
    // its PONG proves the server has every one of them before the connection closes.
    await new Promise((resolve) => setImmediate(resolve));
    await this.connection?.flush().catch(() => undefined);
    return { unfinished };
  }
}
