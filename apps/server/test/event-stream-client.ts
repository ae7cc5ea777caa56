import { readServerSentEvents, ServerSentEvent } from '@ledger/messaging';
import { eventually } from '@ledger/test-support';

/**
 * A client of GET /v1/events/stream as a browser's fetch streaming reads it: the Authorization
 * header, an optional Last-Event-ID, the body read as it arrives. Keeps every message and comment.
 */
export class EventStreamClient {
  readonly events: ServerSentEvent[] = [];
  readonly comments: string[] = [];
  status = 0;
  contentType: string | null = null;
  /** The answer's text when it was not a stream (an error). */
  body = '';
  private readonly abort = new AbortController();
  private ended = false;

  static async open(baseUrl: string, apiKey: string, options: { lastEventId?: string; query?: string } = {}): Promise<EventStreamClient> {
    const headers: Record<string, string> = { authorization: `api-key ${apiKey}`, accept: 'text/event-stream' };
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const client = new EventStreamClient();
    const response = await fetch(`${baseUrl}/v1/events/stream${options.query ? `?${options.query}` : ''}`, { headers, signal: client.abort.signal });
    client.status = response.status;
    client.contentType = response.headers.get('content-type');
    if (response.ok && response.body) void client.pump(response.body);
    else client.body = await response.text();
    return client;
  }

  get closedByServer(): boolean {
    return this.ended;
  }

  /** Waits until at least `count` messages arrived; answers them. */
  async waitForEvents(count: number): Promise<ServerSentEvent[]> {
    return eventually(`${count} events on the stream (have ${this.events.length})`, async () => this.events.length >= count && this.events.slice());
  }

  close(): void {
    this.abort.abort();
  }

  private async pump(body: AsyncIterable<Uint8Array>): Promise<void> {
    try {
      for await (const item of readServerSentEvents(body)) {
        if (item.kind === 'event') this.events.push(item.message);
        else this.comments.push(item.text);
      }
    } catch {
      // Aborted by close(), or the connection dropped: the stream is over either way.
    }
    this.ended = true;
  }
}
