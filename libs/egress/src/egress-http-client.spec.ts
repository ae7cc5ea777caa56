import { Logger } from '@nestjs/common';
import { closedPort, LocalReceiver, scriptedResolver } from '@ledger/test-support';
import { EgressFailure } from './egress-failure';
import { EgressGuard } from './egress-guard';
import { EgressHttpClient } from './egress-http-client';
import { EgressPolicy, SANDBOX_EGRESS_ALLOWLIST } from './egress-policy';

/** A real local receiver: every call the clients below make either reaches it or is refused before it. */
const receiver = new LocalReceiver((request) => {
  if (request.path === '/slow') return { status: 200, body: 'late', delayMs: 1000 };
  if (request.path === '/moved') return { status: 302, headers: { location: '/ok' } };
  return { status: 200, body: { result: 'APPROVED' } };
});
let port = 0;

beforeAll(async () => {
  Logger.overrideLogger(false);
  port = (await receiver.start()).port;
});

afterAll(() => receiver.stop());
beforeEach(() => receiver.clear());

const clients: EgressHttpClient[] = [];
afterAll(() => clients.forEach((client) => client.close()));
function clientWith(allowlist: readonly string[], script: Record<string, string[][]> = {}): EgressHttpClient {
  const client = new EgressHttpClient(new EgressGuard(EgressPolicy.of(allowlist), scriptedResolver(script)));
  clients.push(client);
  return client;
}

const post = (client: EgressHttpClient, url: string, extra: { timeoutMs?: number; readBody?: boolean } = {}) =>
  client.post({ url, headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: '{"a":1}', timeoutMs: extra.timeoutMs ?? 2000, readBody: extra.readBody });

const failureOf = (promise: Promise<unknown>): Promise<EgressFailure> =>
  promise.then(
    () => {
      throw new Error('the call went through');
    },
    (error: unknown) => {
      if (!(error instanceof EgressFailure)) throw error;
      return error;
    },
  );

it('POSTs the body with its headers where the policy allows, and answers the status and, when asked, the body', async () => {
  const client = clientWith(SANDBOX_EGRESS_ALLOWLIST);
  expect(await post(client, `http://127.0.0.1:${port}/ok?x=1`)).toEqual({ status: 200, body: '' });
  expect(await post(client, `http://127.0.0.1:${port}/ok`, { readBody: true })).toEqual({ status: 200, body: '{"result":"APPROVED"}' });
  expect(receiver.requests).toHaveLength(2);
  expect(receiver.requests[0]).toMatchObject({ path: '/ok?x=1', raw: '{"a":1}', headers: { 'content-type': 'application/json', 'x-test': 'yes', host: `127.0.0.1:${port}` } });
});

it('connects a name to the address the guard resolved it to', async () => {
  const client = clientWith(['receiver.test'], { 'receiver.test': [['127.0.0.1']] });
  expect(await post(client, `http://receiver.test:${port}/named`)).toEqual({ status: 200, body: '' });
  expect(receiver.requests.map((request) => [request.path, request.headers.host])).toEqual([['/named', `receiver.test:${port}`]]);
});

it.each([
  ['a literal loopback address', 'http://127.0.0.1:PORT/x', {}],
  ['loopback spelled as one hex number', 'http://0x7f000001:PORT/x', {}],
  ['loopback spelled short', 'http://127.1:PORT/x', {}],
  ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]:PORT/x', {}],
  ['a name resolving to loopback', 'http://inside.test:PORT/x', { 'inside.test': [['127.0.0.1']] }],
  ['a name resolving to a public and a loopback address', 'http://mixed.test:PORT/x', { 'mixed.test': [['8.8.8.8', '127.0.0.1']] }],
  ['a metadata name', 'http://metadata.google.internal:PORT/x', { 'metadata.google.internal': [['127.0.0.1']] }],
  ['credentials in the URL', 'http://user:pass@127.0.0.1:PORT/x', {}],
])('refuses %s before any byte is sent', async (_what, url, script) => {
  const failure = await failureOf(post(clientWith([], script), url.replace('PORT', String(port))));
  expect(failure.failure).toBe('refused_by_egress_policy');
  expect(receiver.requests).toHaveLength(0);
});

it('credentials are refused even where the address is allowed', async () => {
  expect((await failureOf(post(clientWith(SANDBOX_EGRESS_ALLOWLIST), `http://user:pass@127.0.0.1:${port}/x`))).failure).toBe('refused_by_egress_policy');
  expect(receiver.requests).toHaveLength(0);
});

it('does not follow a redirect: a 3xx is the answer', async () => {
  expect(await post(clientWith(SANDBOX_EGRESS_ALLOWLIST), `http://127.0.0.1:${port}/moved`)).toEqual({ status: 302, body: '' });
  expect(receiver.requests.map((request) => request.path)).toEqual(['/moved']);
});

it('classes a timeout, a refused connection and a name that does not resolve, keeping the details for the log', async () => {
  const client = clientWith(SANDBOX_EGRESS_ALLOWLIST);
  const slow = await failureOf(post(client, `http://127.0.0.1:${port}/slow`, { timeoutMs: 300 }));
  expect(slow).toMatchObject({ failure: 'timeout', detail: `127.0.0.1:${port}: no answer within 300 ms` });

  const refused = await failureOf(post(client, `http://127.0.0.1:${await closedPort()}/x`));
  expect(refused.failure).toBe('connection_failed');
  expect(refused.detail).toContain('ECONNREFUSED');

  const unresolved = await failureOf(post(client, 'http://nowhere.test/x'));
  expect(unresolved.failure).toBe('connection_failed');
  expect(unresolved.detail).toContain('ENOTFOUND');
});
