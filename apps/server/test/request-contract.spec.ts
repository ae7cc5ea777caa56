import { request as httpRequest } from 'node:http';
import { dispatchedRoutes } from '@ledger/gateway';
import { eventually } from '@ledger/test-support';
import { ApiAnswer, startTestLedger, TestLedger } from './test-ledger';

/**
 * The request contract, proven for whole classes of input rather than examples: the cases are
 * generated from the running app's OpenAPI document and the HTTP stack's own routes, so a route, body
 * field or query parameter added later is covered without touching this file.
 * - every body field refuses every JSON kind but its own, at any depth, naming the field, writing nothing;
 * - every failing field is named exactly once, with the first rule it breaks;
 * - every integer, date and date-time query parameter refuses what its strict parser refuses and
 *   accepts its extremes without a 500 or a wrong 404;
 * - every route refuses an undeclared or repeated query parameter with a 400 that comes before its 404;
 * - every route with a body refuses a body that is not sent as application/json (415);
 * - every known path answers a method it does not take with 405 and `Allow`.
 */
let t: TestLedger;
let doc: any;
const tokens: Record<string, string> = {};
/** A version 4 UUID of nothing: a path parameter the handler would answer 404 for. */
const PLACEHOLDER = '0b3f4a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const REQUEST_ID = /^[0-9a-f-]{36}$/;
const DEAD_URL = 'http://127.0.0.1:9/unreachable';
const PLASTIC_ORDER = {
  shipping_address: {
    first_name: 'Janet',
    last_name: 'Yellen',
    address1: '5 Broad Street',
    address2: 'Unit 5A',
    city: 'NEW YORK',
    state: 'NY',
    postal_code: '10001',
    country: 'USA',
    email: 'janet@example.com',
    phone_number: '+15555550100',
    line2_text: 'ACME',
  },
  shipping_method: 'EXPEDITED',
  product_id: '100',
};
const BLOCK_GAMBLING = { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] }] };

/** How far beforeAll moved the sandbox program's clock ahead of the wall clock (into the next month, so its account has a statement). */
let clockOffsetMs = 0;
/** A cleared purchase, disputed in beforeAll: a dispute body naming it again is valid and refused (409) without a write. */
let disputedTransaction = '';

beforeAll(async () => {
  t = await startTestLedger({ RATE_LIMIT_PER_SECOND: '0', RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_POLL_MS: '50' });
  doc = await (await fetch(`${t.baseUrl}/openapi.json`)).json();
  const ok = async (answer: Promise<ApiAnswer>) => {
    const { status, body } = await answer;
    expect({ status, body }).toEqual({ status: 200, body: expect.anything() });
    return body;
  };
  tokens.event_subscription_token = (await ok(t.call('POST', '/v1/event_subscriptions', { body: { url: DEAD_URL } }))).token;
  const card = await ok(t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } }));
  tokens.card_token = card.token;
  tokens.pan = card.pan;
  tokens.funding_token = card.funding.token;
  tokens.card_cvv = card.cvv;
  tokens.card_expiration_date = `${card.exp_month}/${card.exp_year.slice(-2)}`;
  tokens.tokenization_token = (await ok(t.call('POST', '/v1/simulate/tokenizations', { body: { pan: card.pan, cvv: card.cvv, expiration_date: tokens.card_expiration_date, tokenization_source: 'APPLE_PAY' } }))).token;
  tokens.account_token = (await ok(t.call('GET', '/v1/accounts'))).data[0].token;
  tokens.auth_rule_token = (await ok(t.call('POST', '/v2/auth_rules', { body: { type: 'CONDITIONAL_ACTION', program_level: true, parameters: BLOCK_GAMBLING } }))).token;
  tokens.auth_rule_backtest_token = (await ok(t.call('POST', `/v2/auth_rules/${tokens.auth_rule_token}/backtests`, { body: {} }))).backtest_token;
  const challenged = { merchant: { id: 'M1', country: 'USA', mcc: '5812', name: 'CHALLENGE SHOP' }, pan: card.pan, transaction: { amount: 1, currency: 'USD' } };
  tokens.three_ds_authentication_token = (await ok(t.call('POST', '/v1/three_ds_authentication/simulate', { body: challenged }))).token;
  // The log's first event (the sandbox program's): in every tree of one or more events, so that any accepted digest_position proves it.
  tokens.event_id = (await t.pool.query(`select event_id from events order by transaction_id, global_position limit 1`)).rows[0].event_id;
  tokens.transaction_token = (await ok(t.call('POST', '/v1/simulate/authorize', { body: { amount: 500, descriptor: 'Shop', pan: card.pan } }))).token;
  tokens.financial_account_token = (await ok(t.call('GET', '/v1/financial_accounts'))).data[0].token;
  // A dispute needs a cleared purchase; its evidence a dispute.
  disputedTransaction = (await ok(t.call('POST', '/v1/simulate/authorize', { body: { amount: 300, descriptor: 'Disputed', pan: card.pan } }))).token;
  await ok(t.call('POST', '/v1/simulate/clearing', { body: { token: disputedTransaction } }));
  tokens.dispute_token = (await ok(t.call('POST', '/v1/disputes', { body: { transaction_token: disputedTransaction, amount: 300, reason: 'OTHER' } }))).token;
  tokens.evidence_token = (await ok(t.call('POST', `/v1/disputes/${tokens.dispute_token}/evidences`, { body: {} }))).token;
  // A card transaction is its own financial transaction, under the same token.
  tokens.financial_transaction_token = tokens.transaction_token;
  // A statement exists once a month of the account has ended: the program's clock is moved into the next month.
  const now = new Date();
  const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 1));
  clockOffsetMs = nextMonth.getTime() - now.getTime();
  await ok(t.call('POST', '/v1/simulate/clock/advance', { body: { frozen_time: nextMonth.toISOString() } }));
  tokens.statement_token = (await ok(t.call('GET', `/v1/financial_accounts/${tokens.financial_account_token}/statements`))).data[0].token;
  tokens.message_token = await eventually('a webhook message', async () => {
    const page = (await t.call('GET', `/v1/event_subscriptions/${tokens.event_subscription_token}/messages`)).body;
    return page.data?.[0]?.token as string | undefined;
  });
  tokens.event_token = await eventually('an event in the feed', async () => (await t.call('GET', '/v1/events?page_size=1')).body.data?.[0]?.token as string | undefined);
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

async function eventCount(): Promise<number> {
  return (await t.pool.query<{ n: number }>('select count(*)::int as n from events')).rows[0].n;
}

// ------------------------------------------------------------------ the app's own description of itself

interface Operation {
  readonly method: string;
  readonly path: string;
  readonly operation: any;
}

function operations(): Operation[] {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    ['get', 'put', 'post', 'patch', 'delete'].filter((method) => item[method]).map((method) => ({ method: method.toUpperCase(), path, operation: item[method] })),
  );
}

/** The path with real tokens (or the placeholder) for its parameters; a parameter this file does not know fails. */
function concrete(path: string, placeholder = false): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (placeholder) return PLACEHOLDER;
    if (!tokens[name]) throw new Error(`no token for path parameter ${name} of ${path}: add one in beforeAll`);
    return tokens[name];
  });
}

function resolve(schema: any): any {
  return schema?.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
}

type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array';
const KIND_OF_TYPE: Record<string, Kind> = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', object: 'object', array: 'array' };

/** A field position of a body, at any depth, with the JSON kind its schema documents. */
interface FieldPosition {
  readonly path: string[];
  readonly name: string;
  readonly kind: Kind;
  readonly nullable: boolean;
  readonly schema: any;
}

function fieldPositions(schema: any, path: string[] = [], name = ''): FieldPosition[] {
  const object = resolve(schema);
  return Object.entries<any>(object.properties ?? {}).flatMap(([key, property]) => {
    const members: any[] = property.anyOf ?? [property];
    const nullable = members.some((member) => member.type === 'null') || (Array.isArray(property.type) && property.type.includes('null'));
    const own = resolve(members.find((member) => member.type !== 'null'));
    const type = Array.isArray(own.type) ? own.type.find((candidate: string) => candidate !== 'null') : own.type;
    const kind = own.properties ? 'object' : KIND_OF_TYPE[type];
    if (!kind) throw new Error(`no JSON kind documented for ${[...path, key].join('.')}`);
    const fieldName = name ? `${name}.${key}` : key;
    const position: FieldPosition = { path: [...path, key], name: fieldName, kind, nullable, schema: own };
    const items: FieldPosition[] = kind === 'array' ? [{ path: [...path, key, '0'], name: `${fieldName}[0]`, kind: KIND_OF_TYPE[resolve(own.items).type] ?? 'object', nullable: false, schema: resolve(own.items) }] : [];
    return [position, ...items, ...(kind === 'object' ? fieldPositions(own, [...path, key], fieldName) : [])];
  });
}

/**
 * A body each route accepts (anything but a 400), so that a 400 for the body with one field changed is
 * that field's doing. A route with a body missing here fails the test: add it.
 */
function validBody(key: string): Record<string, unknown> {
  const bodies: Record<string, Record<string, unknown>> = {
    'POST /v1/cards': { type: 'SINGLE_USE', memo: 'm', spend_limit: 0, spend_limit_duration: 'TRANSACTION', state: 'OPEN', exp_month: '01', exp_year: '2040', pin: '1234' },
    'POST /v1/card': { type: 'SINGLE_USE' },
    // The card is DIGITAL_WALLET: renewed and converted to PHYSICAL (then shipped and reissued), or 409 once it no longer can be.
    'POST /v1/cards/{card_token}/renew': { ...PLASTIC_ORDER, exp_month: '01', exp_year: '2040' },
    'POST /v1/cards/{card_token}/reissue': PLASTIC_ORDER,
    'POST /v1/cards/{card_token}/convert_physical': PLASTIC_ORDER,
    'POST /v1/simulate/cards/{card_token}/ship': { tracking_number: '1Z999' },
    'PATCH /v1/cards/{card_token}': { memo: 'm', spend_limit: 0, spend_limit_duration: 'FOREVER', state: 'OPEN', pin: '1234' },
    'POST /v1/simulate/authorize': { amount: 1, descriptor: 'Shop', pan: tokens.pan, partial_approval_capable: false, merchant_amount: 1 },
    'POST /v1/simulate/void': { token: tokens.transaction_token, amount: 1 },
    'POST /v1/simulate/clearing': { token: tokens.transaction_token, amount: 1 },
    'POST /v1/simulate/authorization_advice': { token: tokens.transaction_token, amount: 1 },
    'POST /v1/simulate/return': { amount: 1, descriptor: 'Shop', pan: tokens.pan },
    'POST /v1/simulate/credit_authorization_advice': { amount: 1, descriptor: 'Shop', pan: tokens.pan },
    'POST /v1/simulate/return_reversal': { token: tokens.transaction_token },
    'POST /v1/simulate/settle': {},
    // A minute ahead of the program's clock (the wall clock and the offset beforeAll gave it): never before the clock an earlier call of this kind set.
    'POST /v1/simulate/clock/advance': { frozen_time: new Date(Date.now() + clockOffsetMs + 60_000).toISOString() },
    'PATCH /v1/accounts/{account_token}': {
      state: 'ACTIVE',
      spend_limit: { transaction: 0, weekly: 0, monthly: 0 },
      velocity_limit: { max_authorizations: 50, window_seconds: 60 },
      blocked_merchants: ['Blocked'],
      monthly_spend_limit: 0,
      daily_spend_limit: 0,
      lifetime_spend_limit: 0,
    },
    'POST /v1/cards/search_by_pan': { pan: tokens.pan },
    'POST /v1/funding_sources': { account_name: 'Bank', account_number: '12345678', nickname: 'n' },
    'PATCH /v1/funding_sources/{funding_token}': { nickname: 'n' },
    'PUT /v1/auth_stream': { url: DEAD_URL, timeout_ms: 1000 },
    'POST /v1/responder_endpoints': { type: 'AUTH_STREAM_ACCESS', url: DEAD_URL },
    'POST /v1/event_subscriptions': { url: DEAD_URL, description: 'd', event_types: ['card.created'], disabled: true },
    'PATCH /v1/event_subscriptions/{event_subscription_token}': { url: DEAD_URL, description: 'd', event_types: [], disabled: true },
    'POST /v1/simulate/event_subscriptions/{event_subscription_token}/send_example': { event_type: 'card.created' },
    'POST /v2/auth_rules': {
      type: 'CONDITIONAL_ACTION',
      parameters: BLOCK_GAMBLING,
      name: 'n',
      event_stream: 'AUTHORIZATION',
      program_level: true,
      excluded_card_tokens: [tokens.card_token],
      excluded_account_tokens: [],
      business_account_tokens: [],
      excluded_business_account_tokens: [],
    },
    'PATCH /v2/auth_rules/{auth_rule_token}': { name: 'n', state: 'INACTIVE', program_level: true, excluded_card_tokens: [], excluded_account_tokens: [], business_account_tokens: [], excluded_business_account_tokens: [] },
    'POST /v2/auth_rules/{auth_rule_token}/draft': { parameters: BLOCK_GAMBLING },
    'POST /v2/auth_rules/{auth_rule_token}/backtests': { start: '2026-01-01T00:00:00Z', end: '2026-02-01T00:00:00Z' },
    'POST /v1/three_ds_authentication/simulate': { merchant: { id: 'M1', country: 'USA', mcc: '5812', name: 'CHALLENGE SHOP' }, pan: tokens.pan, transaction: { amount: 1, currency: 'USD' }, card_expiry_check: 'MATCH' },
    'POST /v1/three_ds_decisioning/simulate/enter_otp': { token: tokens.three_ds_authentication_token, otp: '123456' },
    'POST /v1/three_ds_decisioning/challenge_response': { token: tokens.three_ds_authentication_token, challenge_response: 'APPROVE' },
    'POST /v1/simulate/tokenizations': {
      pan: tokens.pan,
      cvv: tokens.card_cvv,
      expiration_date: tokens.card_expiration_date,
      tokenization_source: 'GOOGLE',
      account_score: 5,
      device_score: 5,
      entity: 'e',
      wallet_recommended_decision: 'APPROVED',
    },
    'POST /v1/tokenizations/{tokenization_token}/resend_activation_code': { activation_method_type: 'EMAIL_TO_CARDHOLDER_ADDRESS' },
    'POST /v1/tokenizations/{tokenization_token}/update_digital_card_art': { digital_card_art_token: '5e9483eb-8103-4e16-9702-09374a0e0d1a' },
    'POST /v1/cards/{card_token}/provision': { digital_wallet: 'GOOGLE_PAY', certificate: 'c', client_device_id: 'd', client_wallet_account_id: 'w', nonce: 'n', nonce_signature: 's' },
    'POST /v1/cards/{card_token}/web_provision': { digital_wallet: 'GOOGLE_PAY', client_device_id: 'd', client_wallet_account_id: 'w', server_session_id: 's' },
    // Refused (409, the transaction is already disputed) after validation: a valid body that writes nothing.
    'POST /v1/disputes': { transaction_token: disputedTransaction, amount: 100, reason: 'OTHER', customer_filed_date: '2026-01-01T00:00:00Z', customer_note: 'n' },
    'PATCH /v1/disputes/{dispute_token}': { amount: 100, reason: 'OTHER', customer_filed_date: '2026-01-01T00:00:00Z', customer_note: 'n' },
    'POST /v1/disputes/{dispute_token}/evidences': { filename: 'f.pdf' },
    'PUT /v1/disputes/{dispute_token}/evidences/{evidence_token}/upload': { content_base64: 'AAAA' },
    'POST /v1/simulate/disputes/{dispute_token}/advance': { status: 'SUBMITTED' },
  };
  if (!bodies[key]) throw new Error(`no valid body for ${key}: add one to validBody`);
  return structuredClone(bodies[key]);
}

/** One value of each JSON kind; the object and list kinds come in an empty and a full form. */
const SAMPLES: Record<Kind | 'null', unknown[]> = {
  string: ['7'],
  number: [7],
  boolean: [true],
  object: [{}, { max_authorizations: 50, window_seconds: 1 }],
  array: [[], [{ max_authorizations: 50, window_seconds: 1 }]],
  null: [null],
};
const ARTICLE: Record<Kind, string> = { string: 'a string', number: 'a number', boolean: 'a boolean', object: 'an object', array: 'a list' };

function withValue(body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let node: any = copy;
  for (const [index, key] of path.slice(0, -1).entries()) {
    if (node[key] === undefined || node[key] === null) node[key] = /^\d+$/.test(path[index + 1]) ? [] : {};
    node = node[key];
  }
  node[path[path.length - 1]] = value;
  return copy;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The error body's sentences, with a check that it is the JSON error body. */
function sentences(answer: ApiAnswer): string[] {
  expect(answer.body).toEqual({ debugging_request_id: expect.stringMatching(REQUEST_ID), message: expect.any(String) });
  return (answer.body.message as string).split('; ');
}

const bodyOperations = () => operations().filter(({ operation }) => operation.requestBody);

// ------------------------------------------------------------------ bodies

describe('body shapes', () => {
  it('covers every operation with a body', () => {
    expect(bodyOperations().length).toBeGreaterThanOrEqual(15);
  });

  it('refuses, for every field of every body at any depth, each JSON kind but its own: 400 naming the field, nothing written', async () => {
    const failures: string[] = [];
    for (const { method, path, operation } of bodyOperations()) {
      const key = `${method} ${path}`;
      const base = validBody(key);
      const before = await eventCount();
      for (const field of fieldPositions(operation.requestBody.content['application/json'].schema)) {
        for (const kind of ['string', 'number', 'boolean', 'object', 'array', 'null'] as const) {
          if (kind === field.kind || (kind === 'null' && (field.nullable || field.path.at(-1) === '0'))) continue;
          for (const value of SAMPLES[kind]) {
            const answer = await t.call(method, concrete(path), { body: withValue(base, field.path, value) });
            const expected = kind === 'null' ? `${field.name} must not be null` : new RegExp(`^${escape(field.name)} must be .+, not ${ARTICLE[kind]}$`);
            const named = answer.status === 400 ? sentences(answer).filter((sentence) => sentence.startsWith(`${field.name} `)) : [];
            const right = named.length === 1 && (typeof expected === 'string' ? named[0] === expected : expected.test(named[0]));
            if (answer.status !== 400 || !right) failures.push(`${key} ${field.name}=${JSON.stringify(value)}: ${answer.status} ${JSON.stringify(answer.body)}`);
          }
        }
      }
      if ((await eventCount()) !== before) failures.push(`${key}: a refused body wrote events`);
      const accepted = await t.call(method, concrete(path), { body: base });
      if (accepted.status === 400 || accepted.status >= 500) failures.push(`${key}: its valid body answered ${accepted.status} ${JSON.stringify(accepted.body)}`);
    }
    await t.call('DELETE', '/v1/auth_stream'); // the valid body enrolled one, which later authorizations would call
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers PATCH /v1/accounts/{t} with velocity_limit as a list 400, and keeps the velocity rule', async () => {
    const account = `/v1/accounts/${tokens.account_token}`;
    await t.call('PATCH', account, { body: { velocity_limit: { max_authorizations: 50, window_seconds: 60 } } });
    const before = await eventCount();
    for (const body of [{ velocity_limit: [{ max_authorizations: 50, window_seconds: 1 }] }, { velocity_limit: [] }, { spend_limit: [] }]) {
      const answer = await t.call('PATCH', account, { body });
      expect(answer.status).toBe(400);
      expect(sentences(answer)).toEqual([expect.stringMatching(/^(velocity_limit|spend_limit) must be an object, not a list$/)]);
    }
    expect(await eventCount()).toBe(before);
    expect((await t.call('GET', account)).body.velocity_limit).toEqual({ max_authorizations: 50, window_seconds: 60 });
  });
});

describe('integers judged as written', () => {
  /** Each would round to an integer the field takes (or to 0) if it were parsed before it was checked. */
  const NOT_INTEGERS = ['1.0000000000000001', '0.99999999999999999', '1e2', '1E0', '1e-400'];
  const LITERAL = '__literal__';

  /** The body with the field written as `literal`, exactly as given (JSON.stringify would rewrite it). */
  function bodyWith(base: Record<string, unknown>, field: FieldPosition, literal: string): string {
    return JSON.stringify(withValue(base, field.path, LITERAL)).replace(`"${LITERAL}"`, literal);
  }

  const integerFields = () =>
    bodyOperations().flatMap(({ method, path, operation }) =>
      fieldPositions(operation.requestBody.content['application/json'].schema)
        .filter((field) => field.schema?.type === 'integer' || (Array.isArray(field.schema?.type) && field.schema.type.includes('integer')))
        .map((field) => ({ method, path, field })),
    );

  it('has no body field that takes a number with a fraction, so the rule holds for every number of every body', () => {
    const fractional = bodyOperations().flatMap(({ method, path, operation }) =>
      fieldPositions(operation.requestBody.content['application/json'].schema)
        .filter((field) => field.kind === 'number' && field.schema?.type !== 'integer')
        .map((field) => `${method} ${path} ${field.name}`),
    );
    expect(fractional).toEqual([]);
    expect(integerFields().length).toBeGreaterThanOrEqual(15);
  });

  it('refuses every integer field of every body written with a fraction, an exponent or an underflow: 400 naming it, nothing written', async () => {
    const failures: string[] = [];
    const before = await eventCount();
    for (const { method, path, field } of integerFields()) {
      const base = validBody(`${method} ${path}`);
      for (const literal of NOT_INTEGERS) {
        const answer = await t.call(method, concrete(path), { rawBody: bodyWith(base, field, literal) });
        const expected = `${field.name} must be an integer, written without a fraction or an exponent`;
        if (answer.status !== 400 || !sentences(answer).includes(expected)) failures.push(`${method} ${path} ${field.name}=${literal}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await eventCount()).toBe(before);
  }, 120_000);

  it('does not refuse the same fields written as plain integers for how they are written', async () => {
    const failures: string[] = [];
    for (const { method, path, field } of integerFields()) {
      const base = validBody(`${method} ${path}`);
      const literal = String(field.schema.minimum ?? 0);
      const answer = await t.call(method, concrete(path), { rawBody: bodyWith(base, field, literal) });
      if (answer.status === 400 && answer.body.message.includes('without a fraction or an exponent')) failures.push(`${method} ${path} ${field.name}=${literal}: ${JSON.stringify(answer.body)}`);
      if (answer.status >= 500) failures.push(`${method} ${path} ${field.name}=${literal}: ${answer.status}`);
    }
    await t.call('DELETE', '/v1/auth_stream'); // a valid body may have enrolled one, which later authorizations would call
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('one message per failing field', () => {
  const WRONG: Record<Kind, unknown> = { string: 7, number: '100', boolean: 'true', object: [], array: {} };

  it('names each failing field of every body exactly once, however many rules it breaks', async () => {
    const failures: string[] = [];
    for (const { method, path, operation } of bodyOperations()) {
      const schema = resolve(operation.requestBody.content['application/json'].schema);
      const fields = fieldPositions(schema).filter((field) => field.path.length === 1);
      const required: string[] = schema.required ?? [];
      // Every field wrong at once; then every required field missing and every other one wrong.
      const allWrong = Object.fromEntries(fields.map((field) => [field.name, WRONG[field.kind]]));
      const missing = Object.fromEntries(fields.filter((field) => !required.includes(field.name)).map((field) => [field.name, WRONG[field.kind]]));
      for (const body of [allWrong, { ...missing, unknown_field: 1 }]) {
        const answer = await t.call(method, concrete(path), { body });
        const named = answer.status === 400 ? sentences(answer) : [];
        const expectedFields = [...fields.map((field) => field.name), ...(body === allWrong ? [] : ['unknown_field'])].sort();
        const namedFields = named.map((sentence) => sentence.split(' ')[0]).sort();
        if (answer.status !== 400 || JSON.stringify(namedFields) !== JSON.stringify(expectedFields)) {
          failures.push(`${method} ${path} ${JSON.stringify(body)}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('names an amount sent as text once, by its type', async () => {
    const answer = await t.call('POST', '/v1/simulate/authorize', { body: { amount: '100', descriptor: 'Shop', pan: tokens.pan } });
    expect(answer.status).toBe(400);
    expect(sentences(answer)).toEqual(['amount must be an integer of 0 or more, not a string']);
  });

  it('names each failing query parameter of every list exactly once', async () => {
    const failures: string[] = [];
    for (const { method, path, operation } of operations()) {
      // Free text (the card memo filter) has no wrong value short of its length.
      const query = (operation.parameters ?? []).filter((parameter: any) => parameter.in === 'query' && !isFreeText(parameter.schema));
      if (query.length < 2) continue;
      const answer = await t.call(method, `${concrete(path)}?${query.map((parameter: any) => `${parameter.name}=%20wrong%20`).join('&')}`);
      const namedFields = answer.status === 400 ? sentences(answer).map((sentence) => sentence.split(' ')[0]).sort() : [];
      if (JSON.stringify(namedFields) !== JSON.stringify(query.map((parameter: any) => parameter.name).sort())) {
        failures.push(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

// ------------------------------------------------------------------ query parameters

/** begin/end: a YYYY-MM-DD day or an RFC 3339 instant, documented as the union of both formats. */
function isDayOrInstant(schema: any): boolean {
  return JSON.stringify((schema.oneOf ?? []).map((member: any) => member.format)) === '["date","date-time"]';
}

/** Text matched as given (the card memo filter): only its length can be wrong. */
/** A comma list of enumerated values (`event_types=card.created,card.updated`, as the Lithic SDK sends an array). */
function isEnumList(schema: any): boolean {
  return schema.type === 'string' && Array.isArray(schema['x-comma-list-of']) && schema['x-comma-list-of'].length > 0;
}

function isFreeText(schema: any): boolean {
  return schema.type === 'string' && !schema.format && !schema.pattern && !schema.enum && typeof schema.maxLength === 'number';
}

describe('query parameters', () => {
  const BAD_INTEGERS = (min: number, max: number) => [String(min - 1), '-1', String(max + 1), '99999999999999999999', '1.5', '1e3', '+1', ' 1', '0x10', 'abc', ''];
  const BAD_DATES = ['0000-01-01', '10000-01-01', '2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '20260101', '2026-1-01', '2026-01-01T00:00:00Z', ''];
  const GOOD_DATES = ['0001-01-01', '9999-12-31', '2024-02-29'];
  /** A bad date that is a good instant, or the reverse: right for a parameter that takes either. */
  const DAYS_OR_INSTANTS = ['2026-01-01T00:00:00Z', '2030-01-01'];
  const BAD_INSTANTS = [
    '2030-W01-1',
    '2030-W01',
    '20300101T000000Z',
    '2024-366',
    '2030-01-01',
    '2030-01-01T00:00Z',
    '2030-01-01T00:00:00',
    '2030-01-01 00:00:00Z',
    '2030-01-01t00:00:00z',
    '2030-01-01T24:00:00Z',
    '2030-01-01T00:60:00Z',
    '2030-01-01T00:00:60Z',
    '2030-02-30T00:00:00Z',
    '2030-01-01T00:00:00+24:00',
    '2030-01-01T00:00:00+0100',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-00:01',
    '2030-01-01T00:00:00.Z',
    '2030-01-01T00:00:00.1234567890Z',
  ];
  const GOOD_INSTANTS = ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999999999Z', '2100-01-01T00:00:00+14:00', '2100-01-01T00:00:00-12:30', '2100-06-30T12:00:00.5Z'];

  /** Every documented query parameter of a kind this file knows, on every operation. */
  function parameters(): { method: string; path: string; name: string; schema: any }[] {
    return operations().flatMap(({ method, path, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter: any) => parameter.in === 'query')
        // Swagger puts a property's x- extensions on the parameter: the list's values join its schema here.
        .map((parameter: any) => ({ method, path, name: parameter.name, schema: parameter['x-comma-list-of'] ? { ...parameter.schema, 'x-comma-list-of': parameter['x-comma-list-of'] } : parameter.schema })),
    );
  }

  it('documents only integer, date, date-time, day-or-instant, UUID, enumerated and length-bounded text query parameters, so the cases below cover all', () => {
    for (const { path, name, schema } of parameters()) {
      const kind =
        schema.type === 'integer' || ['date', 'date-time', 'uuid'].includes(schema.format) || Array.isArray(schema.enum) || isDayOrInstant(schema) || isFreeText(schema) || isEnumList(schema);
      expect({ path, name, kind }).toEqual({ path, name, kind: true });
    }
    expect(parameters().filter(({ schema }) => schema.type === 'integer').length).toBeGreaterThanOrEqual(10);
  });

  it('refuses what the strict parsers refuse, naming the parameter, and accepts their extremes without a 500 or a wrong 404', async () => {
    const failures: string[] = [];
    const check = async (method: string, url: string, expectOk: boolean, name: string) => {
      const answer = await t.call(method, url);
      if (expectOk ? answer.status !== 200 : answer.status !== 400 || !sentences(answer)[0].startsWith(`${name} must be `) || sentences(answer).length !== 1) {
        failures.push(`${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    };
    for (const { method, path, name, schema } of parameters()) {
      const url = (value: string) => `${concrete(path)}?${name}=${encodeURIComponent(value)}`;
      if (schema.type === 'integer') {
        expect(schema.maximum).toEqual(expect.any(Number));
        for (const bad of BAD_INTEGERS(schema.minimum, schema.maximum)) await check(method, url(bad), false, name);
        for (const good of [schema.minimum, schema.maximum]) await check(method, url(String(good)), true, name);
      } else if (schema.format === 'date') {
        for (const bad of BAD_DATES) await check(method, url(bad), false, name);
        for (const good of GOOD_DATES) await check(method, url(good), true, name);
      } else if (schema.format === 'date-time') {
        for (const bad of BAD_INSTANTS) await check(method, url(bad), false, name);
        for (const good of GOOD_INSTANTS) await check(method, url(good), true, name);
      } else if (isDayOrInstant(schema)) {
        for (const bad of [...BAD_DATES, ...BAD_INSTANTS].filter((text) => !DAYS_OR_INSTANTS.includes(text))) await check(method, url(bad), false, name);
        for (const good of [...GOOD_DATES, ...GOOD_INSTANTS]) await check(method, url(good), true, name);
      } else if (isEnumList(schema)) {
        const values: string[] = schema['x-comma-list-of'];
        for (const bad of ['', ',', 'nope', `${values[0]},nope`, `${values[0]},`, ` ${values[0]}`, `${values.join(',')},`]) await check(method, url(bad), false, name);
        for (const good of [...values, values.join(','), `${values[0]},${values[0]}`]) await check(method, url(good), true, name);
      } else if (isFreeText(schema)) {
        await check(method, url('x'.repeat(schema.maxLength + 1)), false, name);
        for (const good of ['', 'x'.repeat(schema.maxLength), "' OR 1=1 --", '%_\\']) await check(method, url(good), true, name);
      }
    }
    expect(failures).toEqual([]);
  }, 60_000);

  it('reads an accepted as_of exactly: the card as it is now at any later instant, none before it existed', async () => {
    const card = `/v1/cards/${tokens.card_token}`;
    const now = (await t.call('GET', card)).body;
    for (const later of GOOD_INSTANTS) expect((await t.call('GET', `${card}?as_of=${encodeURIComponent(later)}`)).body).toEqual(now);
    expect((await t.call('GET', `${card}?as_of=0001-01-01T00:00:00Z`)).status).toBe(404);
    expect((await t.call('GET', '/v1/transactions?as_of=0001-01-01T00:00:00Z')).body).toMatchObject({ data: [], total_entries: 0 });
  });

  it('reads begin and end as UTC days, the earliest and latest included', async () => {
    expect((await t.call('GET', '/v1/cards?begin=0001-01-01&end=9999-12-31')).body.total_entries).toBeGreaterThan(0);
    expect((await t.call('GET', '/v1/cards?end=0001-01-01')).body.total_entries).toBe(0);
    expect((await t.call('GET', '/v1/transactions?begin=9999-12-31')).body.total_entries).toBe(0);
  });

  it('answers an empty page, not a 500, for the last page there can be', async () => {
    const answer = await t.call('GET', '/v1/cards?page=2000000&page_size=1000');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ data: [], page: 2000000 });
  });

  it('refuses a query parameter no route declares, on every route, before the route could answer 404', async () => {
    const failures: string[] = [];
    for (const { method, path } of dispatched().filter(({ path }) => !SWAGGER_ROUTES.test(path))) {
      const answer = await t.call(method, `${concrete(path, true)}?unexpected_parameter=1`, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      if (answer.status !== 400 || answer.body.message !== 'unexpected_parameter is not a known query parameter') failures.push(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    expect(failures).toEqual([]);
    expect(dispatched().length).toBeGreaterThan(30);
  });

  it('refuses every documented query parameter given twice with a 400 naming it', async () => {
    const failures: string[] = [];
    for (const { method, path, name, schema } of parameters()) {
      const value = schema.type === 'integer' ? '1' : schema.format === 'date' || isDayOrInstant(schema) ? '2026-01-01' : isFreeText(schema) ? 'x' : isEnumList(schema) ? schema['x-comma-list-of'][0] : schema.format === 'date-time' ? '2026-01-01T00:00:00Z' : schema.format === 'uuid' ? PLACEHOLDER : schema.enum[0];
      const answer = await t.call(method, `${concrete(path)}?${name}=${value}&${name}=${value}`);
      if (answer.status !== 400 || answer.body.message !== `${name} must be given once`) failures.push(`${method} ${path} ${name}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses a body on a route that takes none', async () => {
    const before = await eventCount();
    const answer = await t.call('POST', `/v1/event_subscriptions/${tokens.event_subscription_token}/secret/rotate`, { body: { secret: 'mine' } });
    expect(answer.status).toBe(400);
    expect(sentences(answer)).toEqual(['This endpoint takes no request body']);
    expect(await eventCount()).toBe(before);
  });
});

// ------------------------------------------------------------------ content types

/** Node's own client, which sends exactly the headers given (fetch adds a Content-Type to a text body). */
function rawCall(method: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${t.baseUrl}${path}`, { method, headers: { authorization: `api-key ${t.apiKey}`, 'content-length': String(Buffer.byteLength(body)), ...headers } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('content types', () => {
  const REFUSED: (string | null)[] = [
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/merge-patch+json',
    'application/jsonx',
    'text/json',
    null,
  ];

  it('answers 415 with the error body for a body not sent as application/json, on every route with a body, and writes nothing', async () => {
    const before = await eventCount();
    const failures: string[] = [];
    for (const { method, path } of bodyOperations()) {
      const body = JSON.stringify(validBody(`${method} ${path}`));
      for (const type of REFUSED) {
        const answer = await rawCall(method, concrete(path), type === null ? {} : { 'content-type': type }, body);
        const ok = answer.status === 415 && answer.body?.message === 'Request body must be JSON sent with Content-Type: application/json' && REQUEST_ID.test(answer.body?.debugging_request_id);
        if (!ok) failures.push(`${method} ${path} ${type}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await eventCount()).toBe(before);
  });

  it('takes application/json with a UTF-8 charset in any case, and needs no Content-Type without a body', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
      expect((await rawCall('POST', '/v1/cards', { 'content-type': type }, '{"type":"SINGLE_USE"}')).status).toBe(200);
    }
    expect((await rawCall('POST', '/v1/simulate/settle', {}, '')).status).toBe(200);
    expect((await rawCall('POST', `/v1/event_subscriptions/${tokens.event_subscription_token}/secret/rotate`, {}, '')).status).toBe(200);
    expect((await rawCall('GET', '/v1/cards', {}, '')).status).toBe(200);
  });
});

// ------------------------------------------------------------------ methods

const SWAGGER_ROUTES = /^(\/openapi\.json|\/docs(\/.*)?)$/;

/** Every method and path the HTTP stack dispatches, Swagger's own routes included. */
function dispatched(): { method: string; path: string }[] {
  return dispatchedRoutes(t.ledger.app).map(({ method, path }) => ({ method, path: path.replace(/:(\w+)/g, '{$1}') }));
}

describe('methods', () => {
  it('answers 405 with Allow and the error body for each method a known path does not take', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const { method, path } of dispatched()) byPath.set(path, (byPath.get(path) ?? new Set()).add(method));
    expect(byPath.size).toBeGreaterThan(25);
    const failures: string[] = [];
    for (const [path, methods] of byPath) {
      const allowed = [...methods, ...(methods.has('GET') ? ['HEAD'] : [])].sort();
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((candidate) => !allowed.includes(candidate))) {
        const answer = await t.call(method, concrete(path, true));
        const ok =
          answer.status === 405 &&
          answer.headers.get('allow') === allowed.join(', ') &&
          (method === 'HEAD' || (REQUEST_ID.test(answer.body?.debugging_request_id) && answer.body?.message === `${method} is not allowed here; this path takes ${allowed.join(', ')}`));
        if (!ok) failures.push(`${method} ${path}: ${answer.status} allow=${answer.headers.get('allow')} ${JSON.stringify(answer.body)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('still answers 404 for a path the app does not have, whatever the method', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const answer = await t.call(method, '/v1/nothing-here');
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ debugging_request_id: expect.stringMatching(REQUEST_ID), message: expect.any(String) });
    }
  });

  it('answers HEAD wherever GET is', async () => {
    expect((await t.call('HEAD', '/v1/cards')).status).toBe(200);
  });
});

describe('authorization scheme', () => {
  it('answers a key sent as Bearer 401, saying the scheme must be api-key, and takes the bare key', async () => {
    const answer = await t.call('GET', '/v1/cards', { headers: { authorization: `Bearer ${t.apiKey}` } });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe('Authorization scheme must be api-key: send `Authorization: api-key <KEY>` (or the bare key)');
    expect((await t.call('GET', '/v1/cards', { headers: { authorization: t.apiKey } })).status).toBe(200);
  });
});
