import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { Pool } from 'pg';
import type { WebhookEventType } from '@ledger/domain';
import type { GlobalPosition } from '@ledger/event-store';
import { EventFeedSignal, LEDGER_CONFIG, type LedgerConfig } from '@ledger/runtime';
import { eventJson, FeedEvents, positionOf } from './feed-events';

/** Rows read per query while catching up; a stream far behind reads its backlog in these steps. */
const READ_BATCH = 200;

export interface EventStreamRequest {
  readonly programToken: string;
  /** Send the events after this position; null: from the program's first event. */
  readonly after: GlobalPosition | null;
  readonly eventTypes: readonly WebhookEventType[] | undefined;
}

/**
 * The open event streams of this process. Each follows its program's events feed: it sends what is
 * past its position, then waits for the feed to grow (a notification from whichever process wrote
 * it) or for the heartbeat to fall due. A client that goes away ends its stream at once; a shutdown
 * ends every stream (clients reconnect with Last-Event-ID), so an open stream never holds the drain.
 */
@Injectable()
export class LiveEventStreams implements OnModuleDestroy {
  private readonly signal: EventFeedSignal;
  private readonly open = new Set<() => void>();
  /** Set by closeAll: a stream that starts during the shutdown ends at once. */
  private closing = false;

  constructor(
    private readonly feed: FeedEvents,
    @Inject(Pool) pool: Pool,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {
    this.signal = new EventFeedSignal(pool);
  }

  /** How many streams are open in this process. */
  get count(): number {
    return this.open.size;
  }

  /** Whether this process is listening for the feed's growth (at least one stream is open and connected). */
  get listening(): boolean {
    return this.signal.listening;
  }

  /** Ends every open stream (the start of a shutdown). */
  closeAll(): void {
    this.closing = true;
    for (const end of [...this.open]) end();
  }

  async onModuleDestroy(): Promise<void> {
    this.closeAll();
    await this.signal.stop();
  }

  /** Streams the events to the response until the client leaves or the process shuts down. */
  async serve(request: EventStreamRequest, response: ServerResponse): Promise<void> {
    let ended = this.closing;
    let wake: () => void = () => undefined;
    const end = () => {
      ended = true;
      wake();
    };
    this.open.add(end);
    response.once('close', end);
    const unsubscribe = this.signal.subscribe(() => wake());
    try {
      startEventStream(response);
      let position = request.after;
      while (!ended) {
        // A notification arriving while we read must not be lost: arm the wait before reading.
        const waiter = this.armWait();
        wake = waiter.wake;
        const rows = await this.feed.after(request.programToken, position, request.eventTypes, READ_BATCH);
        for (const row of rows) {
          if (ended) break;
          await send(response, `id: ${row.token}\nevent: ${row.eventType}\ndata: ${eventJson(row)}\n\n`);
          position = positionOf(row);
        }
        if (rows.length === READ_BATCH || ended) {
          waiter.wake();
          continue;
        }
        if ((await waiter.woken) === 'quiet' && !ended) await send(response, ': heartbeat\n\n');
      }
    } finally {
      this.open.delete(end);
      response.off('close', end);
      await unsubscribe();
      if (!response.writableEnded) response.end();
    }
  }

  /** A wait that ends at the next wake-up, or with 'quiet' once the heartbeat falls due. */
  private armWait(): { woken: Promise<'woken' | 'quiet'>; wake: () => void } {
    let wake: () => void = () => undefined;
    const woken = new Promise<'woken' | 'quiet'>((resolve) => {
      const timer = setTimeout(() => resolve('quiet'), this.config.eventStreamHeartbeatMs);
      wake = () => {
        clearTimeout(timer);
        resolve('woken');
      };
    });
    return { woken, wake };
  }
}

function startEventStream(response: ServerResponse): void {
  response.statusCode = 200;
  response.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  // no-transform: proxies must not compress or buffer it; X-Accel-Buffering: nginx's own switch.
  response.setHeader('Cache-Control', 'no-cache, no-transform');
  response.setHeader('X-Accel-Buffering', 'no');
  response.flushHeaders();
  // A first comment at once: the client sees the stream is open before any event happens.
  response.write(': stream open\n\n');
}

/** Writes, waiting for the socket to drain when the client reads slower than events come. */
async function send(response: ServerResponse, chunk: string): Promise<void> {
  if (response.writableEnded || response.destroyed) return;
  if (response.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}
