import 'reflect-metadata';
import { connect } from 'node:net';
import { eventually } from '@ledger/test-support';
import { ledgerForTests } from './test-ledger';

/**
 * Requests refused below the API, by Node's HTTP parser, before there is a request for a hook or a
 * filter to see, answer the documented JSON error body with the right status and leave a log line
 * under its id; a body in a charset other than UTF-8 is 415 before it is read. Raw sockets: an HTTP
 * client would not send these bytes, or would repair them.
 */
const lines: string[] = [];
const t = ledgerForTests({}, { logDestination: { write: (line: string) => void lines.push(line) } });

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: any;
}

/** Sends the bytes as they are and reads the answer until the server closes the connection. */
function sendRaw(bytes: Buffer | string): Promise<RawAnswer> {
  const { hostname, port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`No HTTP answer before the connection closed: ${JSON.stringify(text)}`));
      const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const rest = text.slice(split + 4);
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest ? JSON.parse(rest) : undefined });
    });
  });
}

const REFUSED_BY_THE_PARSER: { name: string; bytes: string; status: number }[] = [
  { name: 'a malformed request line', bytes: 'G@T /health/live HTTP/1.1\r\nHost: x\r\n\r\n', status: 400 },
  { name: 'a request line with a broken version', bytes: 'GET /health/live HTTP/1.x\r\nHost: x\r\n\r\n', status: 400 },
  { name: 'an invalid header name', bytes: 'GET /health/live HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n', status: 400 },
  { name: 'a Content-Length that is not a number', bytes: 'POST /v1/cards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1x\r\n\r\n{}', status: 400 },
  {
    name: 'Content-Length with Transfer-Encoding',
    bytes: 'POST /v1/cards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
    status: 400,
  },
  { name: 'headers over the size limit', bytes: `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, status: 431 },
];

/** The log line that carries the id (a request's line is written when its answer finishes, maybe after the client read it). */
function loggedLineWith(id: string): Promise<string> {
  return eventually(`a log line carrying ${id}`, async () => lines.find((candidate) => candidate.includes(id)), 5000);
}

describe('refusals below the API', () => {
  it.each(REFUSED_BY_THE_PARSER)('answers $name with the JSON error body ($status) and logs it', async ({ bytes, status }) => {
    const answer = await sendRaw(bytes);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(answer.body).sort()).toEqual(['debugging_request_id', 'message']);
    expect(answer.body.debugging_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body.message).toEqual(expect.any(String));
    expect(answer.headers['x-request-id']).toBe(answer.body.debugging_request_id);
    expect(JSON.parse(await loggedLineWith(answer.body.debugging_request_id))).toMatchObject({ level: 40 });
  });

  it('answers 415 for a UTF-16 JSON body before reading it, whatever its length becomes as UTF-8', async () => {
    // With its byte order mark, as UTF-16 text is written: read as UTF-8 it is longer than sent.
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"type":"SINGLE_USE","memo":"café"}', 'utf16le')]);
    const head = `POST /v1/cards HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: api-key ${t.apiKey}\r\nContent-Type: application/json; charset=utf-16\r\nContent-Length: ${body.length}\r\n\r\n`;
    const answer = await sendRaw(Buffer.concat([Buffer.from(head), body]));
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({ debugging_request_id: answer.headers['x-request-id'], message: 'Request body must be UTF-8 JSON' });
    await loggedLineWith(answer.body.debugging_request_id);
  });

  it('answers a malformed request that follows an answered one on the same keep-alive connection', async () => {
    const { hostname, port } = new URL(t.baseUrl);
    const text = await new Promise<string>((resolve) => {
      let received = '';
      let followed = false;
      const socket = connect(Number(port), hostname, () => socket.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n'));
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        // The first answer is complete: send the malformed request after it.
        if (received.includes('\r\n\r\n') && !followed) {
          followed = true;
          socket.write('G@T / HTTP/1.1\r\nHost: x\r\n\r\n');
        }
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received));
    });
    const answers = text.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((answer) => answer.slice(9, 12))).toEqual(['200', '400']);
    expect(JSON.parse(answers[1].slice(answers[1].indexOf('\r\n\r\n') + 4))).toEqual({ debugging_request_id: expect.stringMatching(/^[0-9a-f-]{36}$/), message: expect.any(String) });
  });

  it('still answers a well-formed request on a raw socket', async () => {
    const answer = await sendRaw('GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer.status).toBe(200);
  });
});
