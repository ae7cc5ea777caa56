import { randomUUID } from 'node:crypto';
import { ApiAnswer, ledgerForTests, TestLedger } from './test-ledger';

/**
 * Retry signals on the wire, over every documented route: `Retry-After` only on 429 and 503 (the
 * rate limiter once put it on every answer, and the Lithic SDK then waited and retried a 409 twice),
 * `X-Should-Retry: false` on every 4xx a retry cannot change, neither header on a success. The rate
 * limiter is on, with limits no request here reaches. 429 itself: rate-limits.spec.ts; 503 and the
 * SDK's behaviour: lithic-sdk.spec.ts; the advice per error class: error-status.spec.ts.
 */
const t = ledgerForTests({ RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_PER_MINUTE: '1000000' });

interface Seen {
  readonly request: string;
  readonly status: number;
  readonly retryAfter: string | null;
  readonly shouldRetry: string | null;
}

const seen: Seen[] = [];

async function record(method: string, path: string, options: Parameters<TestLedger['call']>[2] = {}): Promise<ApiAnswer> {
  const answer = await t.call(method, path, options);
  seen.push({
    request: `${method} ${path}${options.apiKey === null ? ' (no key)' : ''}`,
    status: answer.status,
    retryAfter: answer.headers.get('retry-after'),
    shouldRetry: answer.headers.get('x-should-retry'),
  });
  return answer;
}

it('sends no Retry-After on any 2xx or 4xx, X-Should-Retry: false on every 4xx and nothing on a 2xx, on every route', async () => {
  // Every documented operation, with an unknown token in its path and an empty body: with the key
  // (mostly 400 and 404, lists 200) and without (401).
  const document = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => [method.toUpperCase(), path] as const));
  expect(operations.length).toBeGreaterThan(30);
  for (const [method, template] of operations) {
    const path = template.replace(/\{[^}]+\}/g, () => randomUUID());
    const body = method === 'GET' ? undefined : {};
    await record(method, path, { body });
    await record(method, path, { body, apiKey: null });
  }

  // A card's life, with the conflicts, declines and refusals along the way.
  const card = (await record('POST', '/v1/cards', { body: { type: 'SINGLE_USE', spend_limit: 1000, spend_limit_duration: 'TRANSACTION' } })).body;
  await record('GET', `/v1/cards/${card.token}`);
  await record('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'renamed' } });
  await record('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 5000, descriptor: 'Too much' } }); // 422
  const auth = (await record('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 500, descriptor: 'Shop' } })).body;
  await record('POST', '/v1/simulate/void', { body: { token: auth.token, amount: 500 } });
  await record('POST', '/v1/simulate/void', { body: { token: auth.token, amount: 500 } }); // 409: no longer pending
  await record('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 100, descriptor: 'Again' } }); // 422: used
  await record('PATCH', `/v1/cards/${card.token}`, { body: { state: 'CLOSED' } });
  await record('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'after closing' } }); // 409: closed
  await record('POST', '/v1/cards', { rawBody: '{"type": ' }); // 400: malformed JSON
  await record('POST', '/v1/cards', { rawBody: JSON.stringify({ type: 'SINGLE_USE', memo: 'x'.repeat(200_000) }) }); // 413
  await record('POST', '/v1/cards', { rawBody: '{}', headers: { 'content-type': 'application/json; charset=latin1' } }); // 415
  await record('GET', '/v1/no-such-route'); // 404

  // Idempotency-Key: a replayed error is final too; the key with another body is 422.
  const key = { 'idempotency-key': randomUUID() };
  await record('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'closed, keyed' }, headers: key }); // 409
  const replay = await record('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'closed, keyed' }, headers: key });
  expect({ status: replay.status, replayed: replay.headers.get('idempotent-replayed') }).toEqual({ status: 409, replayed: 'true' });
  await record('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'another body' }, headers: key }); // 422
  const createKey = { 'idempotency-key': randomUUID() };
  await record('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' }, headers: createKey });
  await record('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' }, headers: createKey }); // 200 replayed

  const statuses = new Set(seen.map((answer) => answer.status));
  for (const status of [200, 400, 401, 404, 409, 413, 415, 422]) expect({ status, seen: statuses.has(status) }).toEqual({ status, seen: true });
  expect(seen.filter((answer) => answer.status >= 500 || answer.status === 429)).toEqual([]);

  expect(seen.filter((answer) => answer.retryAfter !== null)).toEqual([]);
  expect(seen.filter((answer) => answer.status >= 400 && answer.shouldRetry !== 'false')).toEqual([]);
  expect(seen.filter((answer) => answer.status < 400 && answer.shouldRetry !== null)).toEqual([]);
}, 60_000);
