import fc from 'fast-check';
import { readServerSentEvents, ServerSentItem } from './server-sent-events';

async function readAll(chunks: readonly string[]): Promise<ServerSentItem[]> {
  async function* body() {
    for (const chunk of chunks) yield new TextEncoder().encode(chunk);
  }
  const items: ServerSentItem[] = [];
  for await (const item of readServerSentEvents(body())) items.push(item);
  return items;
}

const STREAM = ': stream open\r\n\r\nid: 1\nevent: card.created\ndata: {"a":1}\n\nid:2\r\ndata: first\r\ndata:  second\r\n\r\n: heartbeat\n\nevent: x\n\ndata: é☕\r\r';

const EXPECTED: ServerSentItem[] = [
  { kind: 'comment', text: 'stream open' },
  { kind: 'event', message: { id: '1', event: 'card.created', data: '{"a":1}' } },
  { kind: 'event', message: { id: '2', event: 'message', data: 'first\n second' } },
  { kind: 'comment', text: 'heartbeat' },
  // "event: x" alone dispatches nothing (no data); the id carries on to the next message.
  { kind: 'event', message: { id: '2', event: 'message', data: 'é☕' } },
];

describe('readServerSentEvents', () => {
  it('reads messages and comments with LF, CRLF and CR line ends, one optional space after the colon', async () => {
    expect(await readAll([STREAM])).toEqual(EXPECTED);
  });

  it('reads the same however the bytes are split into chunks, even inside a CRLF or a UTF-8 character', async () => {
    const bytes = new TextEncoder().encode(STREAM);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), async (cuts) => {
        const bounds = [0, ...[...cuts].sort((a, b) => a - b), bytes.length];
        async function* body() {
          for (let i = 1; i < bounds.length; i++) yield bytes.subarray(bounds[i - 1], bounds[i]);
        }
        const items: ServerSentItem[] = [];
        for await (const item of readServerSentEvents(body())) items.push(item);
        expect(items).toEqual(EXPECTED);
      }),
      { numRuns: 300 },
    );
  });
});
