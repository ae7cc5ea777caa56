/** One message of a text/event-stream: its `id`, `event` (default "message") and `data` lines joined. */
export interface ServerSentEvent {
  readonly id: string | undefined;
  readonly event: string;
  readonly data: string;
}

/** What the reader yields: a message, or a comment line (`: heartbeat`), which keeps a stream alive. */
export type ServerSentItem = { readonly kind: 'event'; readonly message: ServerSentEvent } | { readonly kind: 'comment'; readonly text: string };

/**
 * Reads a text/event-stream as the HTML standard parses one (lines end in CR, LF or CRLF; a blank
 * line ends a message; `field: value` with one optional space; unknown fields are ignored), from a
 * fetch body: what a browser's fetch streaming and our `listen` command both read.
 */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentItem> {
  const decoder = new TextDecoder();
  const parser = new MessageParser();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    buffer = yield* parser.lines(buffer, false);
  }
  yield* parser.lines(buffer + decoder.decode(), true);
}

/** The state between lines: the message being gathered. */
class MessageParser {
  private id: string | undefined;
  private event = '';
  private data: string[] = [];

  /** Yields what the complete lines of `buffer` make; answers the incomplete rest. */
  *lines(buffer: string, atEnd: boolean): Generator<ServerSentItem, string> {
    for (;;) {
      const end = buffer.search(/\r\n|\r|\n/);
      // A lone CR at the end of the buffer may be the first half of a CRLF: wait for more, unless no more comes.
      if (end < 0 || (!atEnd && buffer[end] === '\r' && end === buffer.length - 1)) return buffer;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      const item = this.line(line);
      if (item) yield item;
    }
  }

  private line(line: string): ServerSentItem | null {
    if (line === '') {
      const message = this.data.length > 0 ? { id: this.id, event: this.event || 'message', data: this.data.join('\n') } : null;
      this.event = '';
      this.data = [];
      return message && { kind: 'event', message };
    }
    if (line.startsWith(':')) return { kind: 'comment', text: line.slice(1).trimStart() };
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id' && !value.includes('\0')) this.id = value;
    else if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return null;
  }
}
