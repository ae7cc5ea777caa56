import { generateSigningSecret, readServerSentEvents, signedHeaders } from '@ledger/messaging';
import { RetryDelays, type RetryDelayPolicy } from '@ledger/retry';
import type { ListenOptions } from './listen-options';

/** Waits before reconnecting after the stream drops; a successful connection starts them over. */
const RECONNECT: RetryDelayPolicy = { firstMs: 250, longestMs: 5_000 };
const FORWARD_TIMEOUT_MS = 10_000;

/** One line of output; the test and the operator read the same text. */
export type Print = (line: string) => void;

/**
 * `admin listen`, like `stripe listen`: follows the program's event stream and forwards every event
 * to a local URL as a webhook would arrive, signed per Standard Webhooks with a secret made for this
 * session. It prints one line per event with the receiver's status. When the stream drops (the
 * service restarts) it reconnects with the last event id it saw, so nothing is lost or repeated.
 */
export class EventListener {
  readonly secret = generateSigningSecret();
  private lastEventId: string | undefined;

  constructor(
    private readonly options: ListenOptions,
    private readonly print: Print,
  ) {}

  /** Runs until `stop` is aborted. */
  async run(stop: AbortSignal): Promise<void> {
    this.print(`Ready. Webhook signing secret for this session: ${this.secret}`);
    this.print(`Forwarding events of ${this.options.baseUrl.origin} to ${this.options.forwardTo.href}${this.options.events ? ` (${this.options.events})` : ''}`);
    const delays = new RetryDelays(RECONNECT);
    while (!stop.aborted) {
      const outcome = await this.follow(stop, () => delays.reset());
      if (stop.aborted) break;
      if (outcome.fatal) throw new Error(outcome.reason);
      const wait = delays.next();
      this.print(`${new Date().toISOString()}  stream lost (${outcome.reason}); reconnecting in ${wait} ms${this.lastEventId ? ` after ${this.lastEventId}` : ''}`);
      await sleep(wait, stop);
    }
  }

  /** One connection: forwards until it ends; answers why it ended. */
  private async follow(stop: AbortSignal, connected: () => void): Promise<{ fatal: boolean; reason: string }> {
    const url = new URL('/v1/events/stream', this.options.baseUrl);
    if (this.options.events) url.searchParams.set('event_types', this.options.events);
    const headers: Record<string, string> = { authorization: `api-key ${this.options.apiKey}`, accept: 'text/event-stream' };
    if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
    let response: Response;
    try {
      response = await fetch(url, { headers, signal: stop });
    } catch (error) {
      return { fatal: false, reason: causeOf(error) };
    }
    // A refused key or a bad filter will not get better by retrying; a 5xx (starting, draining) may.
    if (response.status >= 400 && response.status < 500) return { fatal: true, reason: `the service answered ${response.status}: ${await response.text()}` };
    if (!response.ok || !response.body) return { fatal: false, reason: `status ${response.status}` };
    connected();
    try {
      for await (const item of readServerSentEvents(response.body)) {
        if (item.kind !== 'event' || !item.message.id) continue;
        await this.forward(item.message.id, item.message.event, item.message.data);
        this.lastEventId = item.message.id;
      }
      return { fatal: false, reason: 'the service closed it' };
    } catch (error) {
      return { fatal: false, reason: causeOf(error) };
    }
  }

  /** POSTs the event's webhook body, signed, and prints the line. */
  private async forward(eventToken: string, eventType: string, data: string): Promise<void> {
    const event = JSON.parse(data) as { created: string; payload: unknown };
    const body = JSON.stringify(event.payload);
    let outcome: string;
    try {
      const answer = await fetch(this.options.forwardTo, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'card-ledger-listen/1', ...signedHeaders(this.secret, eventToken, body) },
        body,
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      await answer.arrayBuffer();
      outcome = `[${answer.status}]`;
    } catch (error) {
      outcome = `[failed: ${causeOf(error)}]`;
    }
    this.print(`${event.created}  --> ${eventType.padEnd(24)} ${eventToken}  <-- ${outcome} POST ${this.options.forwardTo.href}`);
  }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function sleep(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    stop.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    }
  });
}
