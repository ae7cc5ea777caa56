import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * Property test (issue text): generated bodies and query strings thrown at every endpoint. Whatever
 * arrives: never a 5xx, every error answer is the JSON error body (`debugging_request_id`, `message`),
 * and the events table is unchanged after every error answer (except a declined authorization's 422,
 * which records the declined transaction by design and says so with its token).
 *
 * FUZZ_RUNS (default 60 per endpoint) and FUZZ_SEED reproduce or widen a run; a failure prints the
 * seed and the counterexample.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

interface Tokens {
  card: string;
  pan: string;
  transaction: string;
  funding: string;
  account: string;
  subscription: string;
  message: string;
}

interface Endpoint {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** `{card}` and the like are path tokens: the real one, another UUID, or generated text. */
  readonly path: string;
  /** A valid body, mutated by the generator; absent for routes without a body. */
  readonly body?: (tokens: Tokens) => Record<string, unknown>;
  readonly query?: readonly string[];
}

const PAGING = ['page', 'page_size', 'begin', 'end'];

// Every route of the gateway's controllers (apps/gateway/src/**/*.controller.ts).
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/health' },
  { method: 'POST', path: '/v1/cards', body: () => ({ type: 'SINGLE_USE', memo: 'fuzz', spend_limit: 1000, spend_limit_duration: 'TRANSACTION', pin: '1234' }) },
  { method: 'POST', path: '/v1/card', body: () => ({ type: 'MERCHANT_LOCKED', exp_month: '01', exp_year: '2030' }) },
  { method: 'PATCH', path: '/v1/cards/{card}', body: (t) => ({ memo: 'patched', funding_token: t.funding, spend_limit: 5000, spend_limit_duration: 'MONTHLY' }) },
  { method: 'GET', path: '/v1/cards/{card}', query: ['as_of'] },
  { method: 'GET', path: '/v1/cards', query: [...PAGING, 'account_token'] },
  { method: 'GET', path: '/v1/cards/{card}/events' },
  { method: 'GET', path: '/v1/cards/{card}/balance' },
  { method: 'GET', path: '/v1/funding_sources/{funding}/balance' },
  { method: 'GET', path: '/v1/transactions/{transaction}/events' },
  { method: 'GET', path: '/v1/transactions', query: [...PAGING, 'account_token', 'card_token', 'cardtoken', 'accounttoken', 'as_of', 'result', 'pagesize'] },
  { method: 'GET', path: '/v1/transactions/{transaction}', query: ['as_of'] },
  { method: 'POST', path: '/v1/simulate/authorize', body: (t) => ({ amount: 100, descriptor: 'Fuzz shop', pan: t.pan, mcc: '5812', cvv: '123', merchant_currency: 'EUR', merchant_amount: 90 }) },
  { method: 'POST', path: '/v1/simulate/void', body: (t) => ({ token: t.transaction, amount: 1 }) },
  { method: 'POST', path: '/v1/simulate/clearing', body: (t) => ({ token: t.transaction, amount: 1 }) },
  { method: 'POST', path: '/v1/simulate/authorization_advice', body: (t) => ({ token: t.transaction, amount: 1 }) },
  { method: 'POST', path: '/v1/simulate/return', body: (t) => ({ amount: 50, descriptor: 'Refund', pan: t.pan }) },
  { method: 'POST', path: '/v1/simulate/settle', body: (t) => ({ token: t.transaction }) },
  { method: 'GET', path: '/v1/accounts', query: PAGING },
  { method: 'GET', path: '/v1/accounts/{account}' },
  { method: 'PATCH', path: '/v1/accounts/{account}', body: () => ({ spend_limit: { transaction: 100_000, weekly: 500_000 }, velocity_limit: { max_authorizations: 1000, window_seconds: 60 }, blocked_merchants: ['x'] }) },
  { method: 'GET', path: '/v1/funding_sources', query: PAGING },
  { method: 'POST', path: '/v1/funding_sources', body: () => ({ account_name: 'Fuzz bank', account_number: '123456789', nickname: 'n', type: 'DEPOSITORY_SAVINGS' }) },
  { method: 'PATCH', path: '/v1/funding_sources/{funding}', body: () => ({ nickname: 'renamed', state: 'ENABLED' }) },
  { method: 'POST', path: '/v1/event_subscriptions', body: () => ({ url: 'http://127.0.0.1:9/fuzz', description: 'fuzz', event_types: ['card.created'], disabled: true }) },
  { method: 'GET', path: '/v1/event_subscriptions', query: ['page', 'page_size'] },
  { method: 'GET', path: '/v1/event_subscriptions/{subscription}' },
  { method: 'PATCH', path: '/v1/event_subscriptions/{subscription}', body: () => ({ description: 'patched', disabled: true }) },
  { method: 'GET', path: '/v1/event_subscriptions/{subscription}/secret' },
  { method: 'POST', path: '/v1/event_subscriptions/{subscription}/secret/rotate', body: () => ({}) },
  { method: 'GET', path: '/v1/event_subscriptions/{subscription}/messages', query: ['page', 'page_size', 'status'] },
  { method: 'GET', path: '/v1/event_subscriptions/{subscription}/messages/{message}' },
  { method: 'GET', path: '/v1/event_subscriptions/{subscription}/messages/{message}/attempts', query: ['page', 'page_size'] },
  { method: 'POST', path: '/v1/event_subscriptions/{subscription}/messages/{message}/resend', body: () => ({}) },
  { method: 'GET', path: '/v1/event_subscriptions/{subscription}/attempts', query: ['page', 'page_size'] },
  { method: 'DELETE', path: '/v1/event_subscriptions/{subscription}', body: () => ({}) },
  { method: 'GET', path: '/v1/auth_stream' },
  { method: 'PUT', path: '/v1/auth_stream', body: () => ({ url: 'http://127.0.0.1:9/auth', timeout_ms: 100 }) },
  { method: 'DELETE', path: '/v1/auth_stream', body: () => ({}) },
];

// ---------------------------------------------------------------- generators

/** Text that tends to break things: SQL, control characters, broken UTF-8 and percent escapes, big numbers. */
const NASTY = [
  '',
  ' ',
  'null',
  '[]',
  '{}',
  '0',
  '-1',
  '1.5',
  '9007199254740993',
  '1e400',
  'NaN',
  '2026-02-30',
  '2026-11-22T10:00:00Z',
  "' OR 1=1 --",
  '"; DROP TABLE events; --',
  '\u0000',
  '\r\nX-Injected: 1',
  '\ud800',
  '%',
  '%zz',
  '%00',
  '%ED%A0%80',
  '%FF%FE',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '🎉',
  'x'.repeat(3000),
];

const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...NASTY), fc.uuid().map(String));
const anyJson = fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' });
const jsonish = fc.oneof(anyJson, fc.constantFrom<unknown>(...NASTY, 9007199254740993, -0, 1e308, Number.MAX_SAFE_INTEGER, true, null, [], {}));

/** Percent-encodes text, lone surrogates included (as the bytes of U+FFFD); NASTY escapes go raw. */
function encode(value: string): string {
  if (/^%|^\.\./.test(value)) return value;
  try {
    return encodeURIComponent(value);
  } catch {
    return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
  }
}

function queryArbitrary(endpoint: Endpoint): fc.Arbitrary<string> {
  const keys = fc.oneof(fc.constantFrom(...(endpoint.query?.length ? endpoint.query : ['page']), 'unknown', '__proto__', 'page[]'), text);
  return fc.array(fc.tuple(keys, text), { maxLength: 4 }).map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')}` : ''));
}

/** A body: any JSON at all, invalid JSON text, nothing, or the valid body with one field changed, dropped or added. */
function bodyArbitrary(endpoint: Endpoint, tokens: Tokens): fc.Arbitrary<{ body?: unknown; rawBody?: string }> {
  const valid = endpoint.body?.(tokens) ?? {};
  const fields = Object.keys(valid);
  const mutated = fc
    .tuple(fc.constantFrom(...fields, 'extra_field', '__proto__', 'constructor'), jsonish, fc.boolean())
    .map(([field, value, drop]) => {
      const body: Record<string, unknown> = { ...valid };
      if (drop && field in body) delete body[field];
      else Object.defineProperty(body, field, { value, enumerable: true, writable: true, configurable: true });
      return { body };
    });
  return fc.oneof(
    { weight: 4, arbitrary: mutated },
    { weight: 2, arbitrary: anyJson.map((body) => ({ body })) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }).map((rawBody) => ({ rawBody })) },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

function pathArbitrary(endpoint: Endpoint, tokens: Tokens): fc.Arbitrary<string> {
  const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as keyof Tokens);
  if (names.length === 0) return fc.constant(endpoint.path);
  const token = (name: keyof Tokens) => fc.oneof({ weight: 3, arbitrary: fc.constant(tokens[name]) }, { weight: 1, arbitrary: fc.uuid().map(String) }, { weight: 1, arbitrary: text.map(encode) });
  return fc.tuple(...names.map(token)).map((values) => names.reduce((path, name, i) => path.replace(`{${name}}`, values[i] || '%20'), endpoint.path));
}

// ---------------------------------------------------------------- the property

let t: TestLedger;
let tokens: Tokens;

beforeAll(async () => {
  t = await startTestLedger({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_RETRY_SCHEDULE: '0', WEBHOOK_POLL_MS: '200' });
  const subscription = (await t.call('POST', '/v1/event_subscriptions', { body: { url: 'http://127.0.0.1:9/hooks' } })).body;
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 1_000_000, spend_limit_duration: 'FOREVER' } })).body;
  const transaction = (await t.call('POST', '/v1/simulate/authorize', { body: { amount: 500, descriptor: 'Fuzz seed', pan: card.pan } })).body;
  const account = (await t.call('GET', '/v1/accounts')).body.data[0];
  const funding = (await t.call('GET', '/v1/funding_sources')).body.data[0];
  const messages = (await t.call('GET', `/v1/event_subscriptions/${subscription.token}/messages`)).body.data ?? [];
  tokens = {
    card: card.token,
    pan: card.pan,
    transaction: transaction.token,
    funding: funding.token,
    account: account.token,
    subscription: subscription.token,
    message: messages[0]?.token ?? randomUUID(),
  };
  for (const [name, value] of Object.entries(tokens)) expect({ name, value }).toEqual({ name, value: expect.any(String) });
}, 60_000);

afterAll(async () => {
  await t?.stop();
});

async function eventCount(): Promise<number> {
  return (await t.pool.query<{ n: number }>('select count(*)::int as n from events')).rows[0].n;
}

it.each(ENDPOINTS.map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))('%s: never a 5xx, always the JSON error body, no event written on an error', async (_, endpoint) => {
  const hasBody = endpoint.method !== 'GET';
  const request = fc.record({
    path: pathArbitrary(endpoint, tokens),
    query: queryArbitrary(endpoint),
    payload: hasBody ? bodyArbitrary(endpoint, tokens) : fc.constant({}),
  });
  await fc.assert(
    fc.asyncProperty(request, async ({ path, query, payload }) => {
      const before = await eventCount();
      const answer = await t.call(endpoint.method, `${path}${query}`, payload);
      const summary = { status: answer.status, body: answer.body };
      expect(answer.status).toBeLessThan(500);
      if (answer.status >= 400) {
        expect(summary).toEqual({ status: answer.status, body: expect.objectContaining({ debugging_request_id: expect.any(String), message: expect.any(String) }) });
        const declinedWithRecord = answer.status === 422 && typeof answer.body.token === 'string';
        if (!declinedWithRecord) expect({ ...summary, events: await eventCount() }).toEqual({ ...summary, events: before });
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
}, 60_000);
