import { createParser } from 'eventsource-parser';

/** One message of a text/event-stream: its `id`, `event` (default "message") and `data` lines joined. */
export interface ServerSentEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/** What the reader yields: a message, or a comment line (`: heartbeat`), which keeps a stream alive. */
export type ServerSentItem = { readonly kind: 'event'; readonly message: ServerSentEvent } | { readonly kind: 'comment'; readonly text: string };

/**
 * Reads a text/event-stream from a fetch body (what our `listen` command and the stream's tests
 * read), with eventsource-parser doing the line and field rules. Two things are added to what the
 * parser reports, so that a message means what it means to a browser's EventSource:
 * - the id is the stream's last event id: a message without an `id` line keeps the one before it
 *   (the parser reports only the message's own);
 * - a CR that ends the body ends a line: the parser holds a trailing CR back in case an LF follows,
 *   and at the end of the body none will.
 */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentItem> {
  const decoder = new TextDecoder();
  const parsed: ServerSentItem[] = [];
  let lastEventId: string | undefined;
  const parser = createParser({
    onEvent: (message) => {
      if (message.id !== undefined) lastEventId = message.id;
      parsed.push({ kind: 'event', message: { id: lastEventId, event: message.event ?? 'message', data: message.data } });
    },
    onComment: (text) => parsed.push({ kind: 'comment', text }),
  });
  let endsInCr = false;
  const feed = (text: string) => {
    if (text === '') return;
    parser.feed(text);
    endsInCr = text.endsWith('\r');
  };
  for await (const chunk of body) {
    feed(decoder.decode(chunk, { stream: true }));
    yield* parsed.splice(0);
  }
  feed(decoder.decode());
  if (endsInCr) parser.feed('\n');
  yield* parsed.splice(0);
}
