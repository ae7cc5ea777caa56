import type { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { Logger } from '@nestjs/common';
import { EgressGuard, EgressHttpClient, EgressPolicy, SANDBOX_EGRESS_ALLOWLIST } from '@ledger/egress';
import { generateSigningSecret, verifyPrivacyHmac } from '@ledger/messaging';
import { deadUrl, LocalReceiver } from '@ledger/test-support';
import { WebhookDispatcher, WEBHOOK_USER_AGENT } from './webhook-dispatcher';

/** One HTTP attempt against a real local server; the vault is the identity (the secret is "sealed" in clear). */
const receiver = new LocalReceiver((request) => {
  if (request.path === '/slow') return { status: 200, body: 'late', delayMs: 1000 };
  if (request.path === '/moved') return { status: 302, headers: { location: '/ok' } };
  return { status: request.path === '/teapot' ? 418 : 204 };
});
let base = '';
const secret = generateSigningSecret();

beforeAll(async () => {
  Logger.overrideLogger(false);
  base = (await receiver.start()).baseUrl;
});

/** The sandbox's policy (loopback open, where the test receiver is) and one that opens nothing. */
const sandboxHttp = new EgressHttpClient(new EgressGuard(EgressPolicy.of(SANDBOX_EGRESS_ALLOWLIST)));
const productionHttp = new EgressHttpClient(new EgressGuard(EgressPolicy.of([])));
afterAll(() => {
  sandboxHttp.close();
  productionHttp.close();
  return receiver.stop();
});

const dispatcherWith = (http: EgressHttpClient) =>
  new WebhookDispatcher({} as Pool, { decrypt: (sealed: string) => sealed }, { execute: async () => undefined }, http, { retrySchedule: [0], pollMs: 10, timeoutMs: 300 });
const dispatcher = dispatcherWith(sandboxHttp);
const message = (path: string, eventType = 'card.created') => ({
  id: '0b6f3e52-3c1e-5d4f-9a8b-7c6d5e4f3a2b',
  event_type: eventType,
  body: JSON.stringify({ event_type: eventType, token: '0b6f3e52-3c1e-5d4f-9a8b-7c6d5e4f3a2b', created: '2026-11-23T08:00:00.000Z', payload: { memo: 'café', token: 't' } }),
  url: `${base}${path}`,
  secret_sealed: secret,
});

it('POSTs the body signed per Standard Webhooks, and answers the status', async () => {
  receiver.clear();
  const outcome = await dispatcher.post(message('/ok'));
  expect(outcome).toMatchObject({ status: 204, error: null });
  const [request] = receiver.requests;
  expect(request.headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': WEBHOOK_USER_AGENT, 'webhook-id': message('/ok').id });
  expect(new Webhook(secret).verify(request.raw, request.headers as Record<string, string>)).toEqual(JSON.parse(message('/ok').body));
  expect(request.headers['x-privacy-hmac']).toBeUndefined();
});

it('adds X-Privacy-HMAC to transaction messages', async () => {
  receiver.clear();
  await dispatcher.post(message('/ok', 'card_transaction.updated'));
  expect(verifyPrivacyHmac(secret, JSON.parse(receiver.requests[0].raw), receiver.requests[0].headers['x-privacy-hmac'] as string)).toBe(true);
});

it('records a non-2xx answer as http_status and does not follow redirects', async () => {
  expect(await dispatcher.post(message('/teapot'))).toMatchObject({ status: 418, error: 'http_status' });
  receiver.clear();
  expect(await dispatcher.post(message('/moved'))).toMatchObject({ status: 302, error: 'http_status' });
  expect(receiver.requests.map((request) => request.path)).toEqual(['/moved']);
});

it('records a timeout and a refused connection by their class only, never the errno, address or port', async () => {
  const slow = await dispatcher.post(message('/slow'));
  expect(slow).toMatchObject({ status: null, error: 'timeout' });
  expect(slow.durationMs).toBeGreaterThanOrEqual(250);
  expect(await dispatcher.post({ ...message('/x'), url: await deadUrl('/x') })).toMatchObject({ status: null, error: 'connection_failed' });
  // Port 9 is a port fetch refused outright; the egress client has no such list: nothing listens, so the connection fails.
  expect(await dispatcher.post({ ...message('/x'), url: 'http://127.0.0.1:9/x' })).toMatchObject({ status: null, error: 'connection_failed' });
});

it('sends nothing where the egress policy refuses, and records only that', async () => {
  receiver.clear();
  for (const url of [`${base}/ok`, base.replace('127.0.0.1', '[::ffff:127.0.0.1]') + '/ok', base.replace('127.0.0.1', '2130706433') + '/ok']) {
    expect(await dispatcherWith(productionHttp).post({ ...message('/ok'), url })).toMatchObject({ status: null, error: 'refused_by_egress_policy' });
  }
  expect(receiver.requests).toHaveLength(0);
});
