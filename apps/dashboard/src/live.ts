import { ExponentialBackoff, noJitterGenerator } from 'cockatiel';
import { useEffect, useState } from 'preact/hooks';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { savedApiKey } from './session';

/** One message of GET /v1/events/stream. */
export interface LiveEvent {
  readonly id: string;
  readonly type: string;
  readonly data: any;
}

export type LiveState = 'connecting' | 'live' | 'polling' | 'offline';

type Listener = () => void;
const listeners = new Set<Listener>();
let state: LiveState = 'connecting';
let tick = 0;
let recent: LiveEvent[] = [];
let stopCurrent: (() => void) | null = null;

function changed(): void {
  for (const listener of listeners) listener();
}

function received(event: LiveEvent): void {
  recent = [event, ...recent].slice(0, 20);
  tick++;
  changed();
}

function setState(next: LiveState): void {
  state = next;
  changed();
}

/** Waits before reconnecting: from half a second, doubling up to ten; a stream that opened starts them over. */
const RECONNECT = new ExponentialBackoff({ initialDelay: 500, maxDelay: 10_000, generator: noJitterGenerator });

/**
 * Follows the program's events: the SSE stream, resumed after a drop from the last id seen. A
 * service without the stream (404) gets a refresh every few seconds instead, and says so.
 */
export function startLiveUpdates(): void {
  stopCurrent?.();
  const controller = new AbortController();
  let lastEventId: string | null = null;
  let pollTimer: ReturnType<typeof setInterval> | null = null;
  stopCurrent = () => {
    controller.abort();
    if (pollTimer) clearInterval(pollTimer);
  };
  let wait = RECONNECT.next();
  const connect = async (): Promise<void> => {
    if (controller.signal.aborted) return;
    setState('connecting');
    try {
      const headers: Record<string, string> = { Authorization: `api-key ${savedApiKey() ?? ''}`, Accept: 'text/event-stream' };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      const response = await fetch('/v1/events/stream', { headers, signal: controller.signal });
      if (response.status === 404 || response.status === 405) {
        setState('polling');
        pollTimer = setInterval(() => {
          tick++;
          changed();
        }, 3000);
        return;
      }
      if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
      setState('live');
      // EventSource cannot send the Authorization header, so the stream is read with fetch.
      const messages = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      for (;;) {
        const { value: message, done } = await messages.read();
        if (done) break;
        if (message.id) lastEventId = message.id;
        let data: unknown = message.data;
        try {
          data = JSON.parse(message.data);
        } catch {
          // keep the text
        }
        received({ id: message.id ?? '', type: message.event ?? 'message', data });
      }
      wait = RECONNECT.next();
    } catch {
      if (controller.signal.aborted) return;
    }
    setState('offline');
    setTimeout(() => void connect(), wait.duration);
    wait = wait.next(undefined);
  };
  void connect();
}

export function stopLiveUpdates(): void {
  stopCurrent?.();
  stopCurrent = null;
}

/** Re-renders on every live event; `tick` changes with each, so pages reload their data on it. */
export function useLive(): { state: LiveState; tick: number; recent: readonly LiveEvent[] } {
  const [, rerender] = useState(0);
  useEffect(() => {
    const listener = () => rerender((n) => n + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { state, tick, recent };
}
