import { registeredRoutes } from './registered-routes';
import { ledgerForTests } from './test-ledger';

/**
 * One rule for a token's case on every route: a UUID's hex digits mean the same in either case, so a
 * token written in upper case finds what the same token in lower case finds. Every GET route with a
 * token in its path is called both ways with real tokens, and a token in a body and in a query too.
 */
const t = ledgerForTests({ RATE_LIMIT_PER_SECOND: '0' });

it('every GET route with tokens in its path answers an upper-case token as its lower-case self', async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
  const authorized = (await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 500, descriptor: 'Case Shop' } })).body;
  const subscription = (await t.call('POST', '/v1/event_subscriptions', { body: { url: 'http://127.0.0.1:9/hook' } })).body;
  const account = (await t.call('GET', '/v1/accounts')).body.data[0];
  const events = (await t.call('GET', '/v1/events?page_size=1')).body.data;
  const messages = (await t.call('GET', `/v1/event_subscriptions/${subscription.token}/messages`)).body.data;
  const tokens: Record<string, string | undefined> = {
    card_token: card.token,
    transaction_token: authorized.token,
    account_token: account.token,
    funding_token: card.funding.token,
    event_subscription_token: subscription.token,
    event_token: events[0]?.token,
    token: events[0]?.token,
    message_token: messages[0]?.token,
    event_id: undefined,
  };
  const routes = registeredRoutes(t.ledger.app).filter((route) => route.startsWith('GET ') && /\{\w+\}/.test(route));
  expect(routes.length).toBeGreaterThan(8);
  const compared: string[] = [];
  for (const route of routes) {
    const path = route.slice(4);
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    if (names.some((name) => tokens[name] === undefined)) continue;
    const fill = (upper: boolean) => path.replace(/\{(\w+)\}/g, (_, name: string) => (upper ? tokens[name]!.toUpperCase() : tokens[name]!));
    const lower = await t.call('GET', fill(false));
    const upper = await t.call('GET', fill(true));
    expect({ route, status: upper.status }).toEqual({ route, status: lower.status });
    if (lower.headers.get('content-type')?.includes('json')) expect({ route, body: withoutRequestIds(upper.body) }).toEqual({ route, body: withoutRequestIds(lower.body) });
    compared.push(route);
  }
  // Every route whose tokens this program has was compared (the audit proof takes an event id, not a token).
  expect(compared.length).toBe(routes.filter((route) => ![...route.matchAll(/\{(\w+)\}/g)].some((match) => tokens[match[1]] === undefined)).length);
  expect(compared).toEqual(expect.arrayContaining(['GET /v1/cards/{card_token}/events', 'GET /v1/transactions/{transaction_token}/events', 'GET /v1/accounts/{account_token}']));
});

it('a token in a body or a query is read in lower case too', async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
  const authorized = (await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 500, descriptor: 'Case Shop' } })).body;
  const voided = await t.call('POST', '/v1/simulate/void', { body: { token: authorized.token.toUpperCase(), amount: 100 } });
  expect(voided.status).toBe(200);
  const listed = (await t.call('GET', `/v1/transactions?card_token=${card.token.toUpperCase()}`)).body;
  expect(listed.data.map((transaction: { token: string }) => transaction.token)).toEqual([authorized.token]);
});

function withoutRequestIds(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body ?? null, (key, value) => (key === 'debugging_request_id' ? undefined : value)));
}
