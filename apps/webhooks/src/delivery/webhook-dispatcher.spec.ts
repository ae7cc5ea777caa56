import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { generateSigningSecret, verifyPrivacyHmac } from '@ledger/messaging';
import { describeFailure, WebhookDispatcher, WEBHOOK_USER_AGENT } from './webhook-dispatcher';

/** One HTTP attempt against a real local server; the vault is the identity (the secret is "sealed" in clear). */
let server: Server;
let base = '';
const seen: { path: string; headers: IncomingHttpHeaders; raw: string }[] = [];
const secret = generateSigningSecret();

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      seen.push({ path: request.url ?? '', headers: request.headers, raw });
      if (request.url === '/slow') return void setTimeout(() => response.end('late'), 1000);
      if (request.url === '/moved') {
        response.writeHead(302, { location: '/ok' });
        return void response.end();
      }
      response.writeHead(request.url === '/teapot' ? 418 : 204);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

const dispatcher = new WebhookDispatcher({} as Pool, { decrypt: (sealed: string) => sealed }, { execute: async () => undefined }, { retrySchedule: [0], pollMs: 10, timeoutMs: 300 });
const message = (path: string, eventType = 'card.created') => ({
  id: '0b6f3e52-3c1e-5d4f-9a8b-7c6d5e4f3a2b',
  event_type: eventType,
  body: JSON.stringify({ event_type: eventType, token: '0b6f3e52-3c1e-5d4f-9a8b-7c6d5e4f3a2b', created: '2026-11-23T08:00:00.000Z', payload: { memo: 'café', token: 't' } }),
  url: `${base}${path}`,
  secret_sealed: secret,
});

it('POSTs the body signed per Standard Webhooks, and answers the status', async () => {
  seen.length = 0;
  const outcome = await dispatcher.post(message('/ok'));
  expect(outcome).toMatchObject({ status: 204, error: null });
  const [request] = seen;
  expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, 'webhook-id': message('/ok').id });
  expect(new Webhook(secret).verify(request.raw, request.headers as Record<string, string>)).toEqual(JSON.parse(message('/ok').body));
  expect(request.headers['x-privacy-hmac']).toBeUndefined();
});

it('adds X-Privacy-HMAC to transaction messages', async () => {
  seen.length = 0;
  await dispatcher.post(message('/ok', 'card_transaction.updated'));
  expect(verifyPrivacyHmac(secret, JSON.parse(seen[0].raw), seen[0].headers['x-privacy-hmac'] as string)).toBe(true);
});

it('records a non-2xx answer and does not follow redirects', async () => {
  expect(await dispatcher.post(message('/teapot'))).toMatchObject({ status: 418, error: null });
  seen.length = 0;
  expect(await dispatcher.post(message('/moved'))).toMatchObject({ status: 302, error: null });
  expect(seen.map((request) => request.path)).toEqual(['/moved']);
});

it('gives up after the timeout, and names a refused connection', async () => {
  const slow = await dispatcher.post(message('/slow'));
  expect(slow).toMatchObject({ status: null, error: 'timed out after 300 ms' });
  expect(slow.durationMs).toBeGreaterThanOrEqual(250);
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const refused = await dispatcher.post({ ...message('/x'), url: `http://127.0.0.1:${port}/x` });
  expect(refused.status).toBeNull();
  expect(refused.error).toMatch(/^ECONNREFUSED/);
  // fetch refuses some ports outright (9, 25, ...); the log says so rather than failing silently.
  expect((await dispatcher.post({ ...message('/x'), url: 'http://127.0.0.1:9/x' })).error).toBe('bad port');
});

it('describes failures briefly', () => {
  expect(describeFailure(Object.assign(new Error('x'), { name: 'TimeoutError' }), 5)).toBe('timed out after 5 ms');
  expect(describeFailure(new TypeError('fetch failed', { cause: { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND nowhere' } }), 5)).toBe('ENOTFOUND: getaddrinfo ENOTFOUND nowhere');
});
