import type { Pool } from 'pg';
import { NotificationListener } from '@ledger/event-store';
import { LISTEN_RECONNECT } from './listen-reconnect';

/** Notified in the transaction that adds rows to the events feed (feed_events). */
export const EVENT_FEED_CHANNEL = 'ledger_event_feed';
export const EVENT_FEED_LISTENER_APPLICATION_NAME = 'ledger-event-feed-listener';

/**
 * Tells live event streams that the events feed grew, whichever process wrote it: one LISTEN
 * connection for all the streams of this process, open while at least one stream waits. A dropped
 * connection wakes everyone (they read the feed again) and reconnects.
 */
export class EventFeedSignal {
  private readonly listener: NotificationListener;

  constructor(pool: Pool) {
    this.listener = new NotificationListener({
      connection: pool.options,
      channel: EVENT_FEED_CHANNEL,
      applicationName: EVENT_FEED_LISTENER_APPLICATION_NAME,
      reconnect: LISTEN_RECONNECT,
    });
  }

  /** Calls wake at every growth of the feed; returns the function that stops it. */
  subscribe(wake: () => void): () => Promise<void> {
    return this.listener.add(wake);
  }

  /** Whether the LISTEN connection is open (tests wait for it before writing). */
  get listening(): boolean {
    return this.listener.connected;
  }

  async stop(): Promise<void> {
    await this.listener.shutdown();
  }
}
