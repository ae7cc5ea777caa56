import { ledgerForTests } from './test-ledger';

const REQUEST_ID = /^[0-9a-f-]{36}$/;
const UNKNOWN_TOKEN = '0b3f4a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
/** Lithic's merchant fields that simulated traffic does not carry. */
const LITHIC_MERCHANT_FIELDS = { acquiring_institution_id: '', phone_number: null, postal_code: null, street_address: null };

const t = ledgerForTests({});

type Json = Record<string, any>;

async function newCard(body: Json = { type: 'DIGITAL_WALLET' }, apiKey?: string): Promise<Json> {
  const answer = await t.call('POST', '/v1/cards', { body, apiKey });
  expect(answer.status).toBe(200);
  return answer.body;
}

const authorize = (pan: string, amount: number, extra: Json = {}, apiKey?: string) =>
  t.call('POST', '/v1/simulate/authorize', { body: { pan, amount, descriptor: 'Coffee Shop', ...extra }, apiKey });
const simulate = (action: string, body: Json, apiKey?: string) => t.call('POST', `/v1/simulate/${action}`, { body, apiKey });
const transaction = async (token: string, apiKey?: string): Promise<Json> => (await t.call('GET', `/v1/transactions/${token}`, { apiKey })).body;

function expectError(answer: { status: number; body: any }, status: number, message: string | RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.body.debugging_request_id).toMatch(REQUEST_ID);
  expect(answer.body.message).toEqual(expect.stringMatching(message));
}

async function expectDecline(answerPromise: Promise<{ status: number; body: any }>, reason: string): Promise<Json> {
  const answer = await answerPromise;
  expectError(answer, 422, new RegExp(`\\(${reason}\\)`));
  expect(answer.body.token).toMatch(REQUEST_ID);
  const recorded = await transaction(answer.body.token);
  expect(recorded).toMatchObject({ status: 'DECLINED', result: reason, events: [{ type: 'AUTHORIZATION', result: reason }] });
  return recorded;
}

async function approved(answerPromise: Promise<{ status: number; body: any }>): Promise<string> {
  const answer = await answerPromise;
  expect(answer.body).toEqual({ debugging_request_id: expect.stringMatching(REQUEST_ID), token: expect.stringMatching(REQUEST_ID) });
  expect(answer.status).toBe(200);
  return answer.body.token;
}

describe('simulated authorization', () => {
  it('creates a PENDING transaction with every field of spec 2.3', async () => {
    const card = await newCard({ type: 'DIGITAL_WALLET', memo: 'tx' });
    const token = await approved(
      authorize(card.pan, 1234, { mcc: '5812', merchant_acceptor_id: 'ACQ-77', city: 'Paris', state: 'IDF', country: 'FRA', merchant_currency: 'EUR', merchant_amount: 1100 }),
    );
    const tx = await transaction(token);
    expect(tx).toEqual({
      acquirer_fee: 0,
      amount: 1234,
      authorization_amount: 1234,
      authorization_code: expect.stringMatching(/^\d{6}$/),
      card,
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      events: [
        {
          amount: 1234,
          created: expect.any(String),
          result: 'APPROVED',
          token: expect.stringMatching(REQUEST_ID),
          type: 'AUTHORIZATION',
          // Lithic's per-event fields: the authorization at its own rate (1234 / 1100), not yet moving funds.
          amounts: { cardholder: { amount: 1234, conversion_rate: '1.121818', currency: 'USD' }, merchant: { amount: 1100, currency: 'EUR' }, settlement: null },
          detailed_results: ['APPROVED'],
          effective_polarity: 'DEBIT',
          network_info: null,
          rule_results: [],
        },
      ],
      funding: [{ amount: 1234, token: card.funding.token, type: 'DEPOSITORY_CHECKING' }],
      merchant: { ...LITHIC_MERCHANT_FIELDS, acceptor_id: 'ACQ-77', city: 'Paris', country: 'FRA', descriptor: 'Coffee Shop', mcc: '5812', state: 'IDF' },
      merchant_amount: 1100,
      merchant_authorization_amount: 1100,
      merchant_currency: 'EUR',
      result: 'APPROVED',
      settled_amount: 0,
      status: 'PENDING',
      token,
      // Lithic's transaction fields beside the spec's
      account_token: card.account_token,
      card_token: card.token,
      updated: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
      amounts: {
        cardholder: { amount: 1234, conversion_rate: '1.121818', currency: 'USD' },
        hold: { amount: 1234, currency: 'USD' },
        merchant: { amount: 1100, currency: 'EUR' },
        settlement: { amount: 0, currency: 'USD' },
      },
      pos: {
        entry_mode: { card: 'UNKNOWN', cardholder: 'UNKNOWN', pan: 'UNKNOWN', pin_entered: false },
        terminal: {
          attended: false,
          card_retention_capable: false,
          on_premise: false,
          operator: 'UNKNOWN',
          partial_approval_capable: false,
          pin_capability: 'UNSPECIFIED',
          type: 'UNKNOWN',
          acceptor_terminal_id: null,
        },
      },
      network: null,
      network_risk_score: null,
      acquirer_reference_number: null,
      avs: null,
      cardholder_authentication: null,
      financial_account_token: null,
      service_location: null,
      token_info: null,
      tags: {},
    });
  });

  it('keeps amounts in step with the spec\'s amounts: nothing held once cleared, the settlement amount set', async () => {
    const card = await newCard();
    const token = await approved(authorize(card.pan, 800));
    expect((await simulate('clearing', { token, amount: 650 })).status).toBe(200);
    const tx = await transaction(token);
    expect(tx.amounts).toEqual({
      cardholder: { amount: 650, conversion_rate: '1.000000', currency: 'USD' },
      hold: { amount: 0, currency: 'USD' },
      merchant: { amount: 650, currency: 'USD' },
      settlement: { amount: 650, currency: 'USD' },
    });
    expect(Date.parse(tx.updated)).toBeGreaterThanOrEqual(Date.parse(tx.created));
  });

  it('defaults the merchant fields a request leaves out', async () => {
    const card = await newCard();
    const tx = await transaction(await approved(authorize(card.pan, 500)));
    expect(tx.merchant).toEqual({ ...LITHIC_MERCHANT_FIELDS, acceptor_id: '', city: '', country: 'USA', descriptor: 'Coffee Shop', mcc: '5999', state: '' });
    expect(tx).toMatchObject({ merchant_currency: 'USD', merchant_amount: 500 });
  });

  it('answers 422 with the transaction token when the card limit is exceeded', async () => {
    const card = await newCard({ type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'TRANSACTION' });
    await approved(authorize(card.pan, 1000));
    const declined = await expectDecline(authorize(card.pan, 1001), 'USER_TRANSACTION_LIMIT');
    expect(declined).toMatchObject({ amount: 1001, settled_amount: 0 });
  });
});

describe('void, clearing, advice, return and settlement', () => {
  it('voids a pending authorization in full: VOIDED with amount 0', async () => {
    const card = await newCard();
    const token = await approved(authorize(card.pan, 700));
    const answer = await simulate('void', { token, amount: 700 });
    expect(answer).toMatchObject({ status: 200, body: { debugging_request_id: expect.stringMatching(REQUEST_ID) } });
    const tx = await transaction(token);
    expect(tx).toMatchObject({ status: 'VOIDED', amount: 0, authorization_amount: 700 });
    expect(tx.events.map((e: Json) => [e.type, e.amount])).toEqual([['AUTHORIZATION', 700], ['VOID', 700]]);
  });

  it('voids part of an authorization: still PENDING with the rest', async () => {
    const card = await newCard();
    const token = await approved(authorize(card.pan, 700));
    await simulate('void', { token, amount: 200 });
    expect(await transaction(token)).toMatchObject({ status: 'PENDING', amount: 500 });
    expectError(await simulate('void', { token, amount: 501 }), 400, /amount 501 is more than the 500 cents still pending/);
  });

  it('clears for less and for more than authorized: SETTLING, then SETTLED by the settlement step', async () => {
    const card = await newCard();
    const less = await approved(authorize(card.pan, 1000));
    const more = await approved(authorize(card.pan, 1000));
    expect((await simulate('clearing', { token: less, amount: 800 })).status).toBe(200);
    expect((await simulate('clearing', { token: more, amount: 1200 })).status).toBe(200);
    expect(await transaction(less)).toMatchObject({ status: 'SETTLING', amount: 800, settled_amount: 800, authorization_amount: 1000 });
    expect(await transaction(more)).toMatchObject({ status: 'SETTLING', amount: 1200, settled_amount: 1200, authorization_amount: 1000 });
    const settled = await simulate('settle', { token: less });
    expect(settled.body).toMatchObject({ settled: [less], bounced: [] });
    expect(await transaction(less)).toMatchObject({ status: 'SETTLED', amount: 800, settled_amount: 800 });
  });

  it('refuses with 409 to void or clear what is no longer pending', async () => {
    const card = await newCard();
    const token = await approved(authorize(card.pan, 300));
    await simulate('clearing', { token, amount: 300 });
    expectError(await simulate('void', { token, amount: 300 }), 409, /is SETTLING; a void needs a PENDING authorization/);
    expectError(await simulate('clearing', { token, amount: 300 }), 409, /is SETTLING/);
    const voided = await approved(authorize(card.pan, 300));
    await simulate('void', { token: voided, amount: 300 });
    expectError(await simulate('clearing', { token: voided, amount: 300 }), 409, /is VOIDED/);
  });

  it('records an authorization advice as the new authorized amount', async () => {
    const card = await newCard();
    const token = await approved(authorize(card.pan, 5000, { merchant_currency: 'EUR', merchant_amount: 4500 }));
    expect((await simulate('authorization_advice', { token, amount: 6000 })).status).toBe(200);
    const tx = await transaction(token);
    expect(tx).toMatchObject({ status: 'PENDING', amount: 6000, authorization_amount: 6000, merchant_amount: 5400 });
    expect(tx.events.map((e: Json) => e.type)).toEqual(['AUTHORIZATION', 'AUTHORIZATION_ADVICE']);
  });

  it('clears a return at once: never PENDING, negative amount, a positive RETURN event', async () => {
    const card = await newCard();
    const answer = await simulate('return', { pan: card.pan, amount: 2500, descriptor: 'Refund Store' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ debugging_request_id: expect.stringMatching(REQUEST_ID), token: expect.stringMatching(REQUEST_ID) });
    const tx = await transaction(answer.body.token);
    expect(tx).toMatchObject({ status: 'SETTLING', result: 'APPROVED', amount: -2500, settled_amount: -2500, merchant: { descriptor: 'Refund Store' } });
    expect(tx.events).toEqual([expect.objectContaining({ type: 'RETURN', amount: 2500, result: 'APPROVED' })]);
    expect((await simulate('settle', { token: answer.body.token })).body.settled).toEqual([answer.body.token]);
  });

  it('bounces a settlement when the funding source fails, and settles every SETTLING transaction when no token is given', async () => {
    const program = await t.createProgram('bouncer');
    const card = await newCard({ type: 'DIGITAL_WALLET' }, program.apiKey);
    const first = await approved(authorize(card.pan, 100, {}, program.apiKey));
    const second = await approved(authorize(card.pan, 200, {}, program.apiKey));
    await simulate('clearing', { token: first, amount: 100 }, program.apiKey);
    await simulate('clearing', { token: second, amount: 200 }, program.apiKey);
    await t.call('PATCH', `/v1/funding_sources/${card.funding.token}`, { apiKey: program.apiKey, body: { state: 'DISCONNECTED' } });
    const settled = await simulate('settle', {}, program.apiKey);
    expect(settled.body).toMatchObject({ settled: [], bounced: [first, second] });
    expect(await transaction(first, program.apiKey)).toMatchObject({ status: 'BOUNCED' });
  });
});

describe('bad simulate input', () => {
  it.each([
    [{ amount: 100, descriptor: 'x' }, /^pan is required and must be a string matching \^\\d\{16\}\$$/],
    [{ pan: '4242424242424242', descriptor: 'x' }, /^amount is required and must be an integer of 0 or more$/],
    [{ pan: '4242424242424242', amount: 100 }, /^descriptor is required and must be a string$/],
    [{ pan: '424242424242424', amount: 100, descriptor: 'x' }, /pan must be a 16-digit card number/],
    [{ pan: '4242424242424242', amount: -1, descriptor: 'x' }, /amount must be an integer number of cents, 0 or more/],
    [{ pan: '4242424242424242', amount: '100', descriptor: 'x' }, /^amount must be an integer of 0 or more, not a string$/],
    [{ pan: '4242424242424242', amount: 1.5, descriptor: 'x' }, /^amount must be an integer number of cents, 0 or more$/],
    [{ pan: '4242424242424242', amount: 100, descriptor: 'x', cvv: '12' }, /cvv must be three digits/],
    [{ pan: '4242424242424242', amount: 100, descriptor: 'x', merchant_currency: 'euro' }, /merchant_currency must be a three-letter ISO 4217 code/],
    [{ pan: '4242424242424242', amount: 100, descriptor: 'x', tip: 5 }, /tip is not a known field/],
  ])('authorize answers 400 for %j', async (body, message) => {
    expectError(await t.call('POST', '/v1/simulate/authorize', { body }), 400, message);
  });

  it('answers 400 for a pan whose check digit is wrong and 404 for a pan of no card of the program', async () => {
    expectError(await authorize('4242424242424241', 100), 400, /pan is not a valid card number/);
    expectError(await authorize('4242424242424242', 100), 404, /No card with this pan/);
    const other = await t.createProgram('other-pan');
    const card = await newCard({ type: 'DIGITAL_WALLET' }, other.apiKey);
    expectError(await authorize(card.pan, 100), 404, /No card with this pan/);
  });

  it.each(['void', 'clearing', 'authorization_advice'])('%s answers 400 for bad fields and 404 for unknown tokens', async (action) => {
    expectError(await simulate(action, { amount: 100 }), 400, /^token is required and must be a UUID$/);
    expectError(await simulate(action, { token: 'abc', amount: 100 }), 400, /token must be a 36-character version 4 UUID/);
    // An advice needs its amount; a void or clearing without one moves the full pending amount, so only the token is wrong.
    if (action === 'authorization_advice') expectError(await simulate(action, { token: UNKNOWN_TOKEN }), 400, /^amount is required and must be an integer of 1 or more$/);
    else expectError(await simulate(action, { token: UNKNOWN_TOKEN }), 404, /Transaction .* not found/);
    expectError(await simulate(action, { token: UNKNOWN_TOKEN, amount: -5 }), 400, /amount must be an integer number of cents, 1 or more/);
    expectError(await simulate(action, { token: UNKNOWN_TOKEN, amount: '5' }), 400, /amount must be an integer/);
    expectError(await simulate(action, { token: UNKNOWN_TOKEN, amount: 100 }), 404, /Transaction .* not found/);
  });

  it("answers 404 for another program's transaction", async () => {
    const card = await newCard();
    const token = await approved(authorize(card.pan, 100));
    const other = await t.createProgram('other-void');
    expectError(await simulate('void', { token, amount: 100 }, other.apiKey), 404, /not found/);
    expectError(await t.call('GET', `/v1/transactions/${token}`, { apiKey: other.apiKey }), 404, /not found/);
  });

  it('return answers 400 for bad fields and 404 for an unknown pan', async () => {
    expectError(await simulate('return', { pan: '4242424242424242', amount: 0, descriptor: 'x' }), 400, /amount must be an integer number of cents, 1 or more/);
    expectError(await simulate('return', { pan: '42424242', amount: 10, descriptor: 'x' }), 400, /pan must be a 16-digit card number/);
    expectError(await simulate('return', { pan: '4242424242424242', amount: 10, descriptor: 'x' }), 404, /No card with this pan/);
  });
});

describe('GET /v1/transactions', () => {
  let program: { apiKey: string; programToken: string };
  let card: Json;
  let tokens: string[];

  beforeAll(async () => {
    program = await t.createProgram('listing');
    card = await newCard({ type: 'DIGITAL_WALLET', spend_limit: 300, spend_limit_duration: 'TRANSACTION' }, program.apiKey);
    tokens = [];
    for (const amount of [100, 200, 300]) tokens.push(await approved(authorize(card.pan, amount, {}, program.apiKey)));
    for (const amount of [400, 500]) tokens.push((await authorize(card.pan, amount, {}, program.apiKey)).body.token);
  });

  const list = (query: string) => t.call('GET', `/v1/transactions${query}`, { apiKey: program.apiKey });

  it('pages oldest first: 5 entries, page_size 2, page 3 holds 1 and total_pages is 3', async () => {
    const page3 = await list('?page_size=2&page=3');
    expect(page3.body).toMatchObject({ page: 3, total_entries: 5, total_pages: 3 });
    expect(page3.body.data.map((tx: Json) => tx.token)).toEqual([tokens[4]]);
    expect((await list('?page_size=2&page=1')).body.data.map((tx: Json) => tx.token)).toEqual(tokens.slice(0, 2));
  });

  it('accepts the run-together names of the spec table too', async () => {
    expect((await list('?pagesize=2&page=3')).body).toMatchObject({ total_pages: 3, data: [expect.objectContaining({ token: tokens[4] })] });
    expect((await list(`?cardtoken=${card.token}`)).body.total_entries).toBe(5);
    expect((await list(`?accounttoken=${program.programToken}`)).body.total_entries).toBe(5);
    expectError(await list(`?card_token=${card.token}&cardtoken=${UNKNOWN_TOKEN}`), 400, /card_token and cardtoken name the same parameter/);
  });

  it('filters by result, card, account and date', async () => {
    expect((await list('?result=APPROVED')).body.data.map((tx: Json) => tx.token)).toEqual(tokens.slice(0, 3));
    expect((await list('?result=DECLINED')).body.data.map((tx: Json) => tx.result)).toEqual(['USER_TRANSACTION_LIMIT', 'USER_TRANSACTION_LIMIT']);
    expect((await list(`?card_token=${card.token}`)).body.total_entries).toBe(5);
    expect((await list(`?card_token=${UNKNOWN_TOKEN}`)).body.total_entries).toBe(0);
    expect((await list(`?account_token=${UNKNOWN_TOKEN}`)).body.total_entries).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await list(`?begin=${today}&end=${tomorrow}`)).body.total_entries).toBe(5);
    expect((await list(`?end=${today}`)).body.total_entries).toBe(0);
  });

  it('lists exactly the rows each filter and cursor selects, in the list order, as a query of the table does', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const tokens = async (where: string, values: unknown[], direction = 'asc') =>
      (await t.pool.query(`select token from transactions where program_token = $1 ${where} order by created ${direction}, token ${direction}`, [program.programToken, ...values])).rows.map(
        (row: { token: string }) => row.token,
      );
    const all = await tokens('', []);
    expect(all.length).toBeGreaterThan(3);
    const middle = all[Math.floor(all.length / 2)];
    const cases: [string, string[]][] = [
      ['', all],
      ['?result=APPROVED', await tokens("and result = 'APPROVED'", [])],
      ['?result=DECLINED', await tokens("and result <> 'APPROVED'", [])],
      ['?status=PENDING', await tokens("and status = 'PENDING'", [])],
      [`?card_token=${card.token}`, await tokens('and card_token = $2', [card.token])],
      [`?card_token=${card.token}&result=DECLINED&status=DECLINED`, await tokens("and card_token = $2 and result <> 'APPROVED' and status = 'DECLINED'", [card.token])],
      [`?begin=${today}&end=${tomorrow}`, all],
      [`?end=${today}`, []],
      [`?starting_after=${middle}`, all.slice(all.indexOf(middle) + 1)],
      [`?ending_before=${middle}`, all.slice(0, all.indexOf(middle))],
      [`?starting_after=${middle}&result=APPROVED`, (await tokens("and result = 'APPROVED'", [])).filter((token: string) => all.indexOf(token) > all.indexOf(middle))],
    ];
    for (const [query, expected] of cases) {
      const answer = await list(`${query}${query ? '&' : '?'}page_size=1000`);
      expect({ query, tokens: answer.body.data.map((tx: Json) => tx.token) }).toEqual({ query, tokens: expected });
    }
    // Page by page with an offset reads the same order.
    const paged = [];
    for (let page = 1; page <= Math.ceil(all.length / 2); page++) paged.push(...(await list(`?page_size=2&page=${page}`)).body.data.map((tx: Json) => tx.token));
    expect(paged).toEqual(all);
  });

  it('answers totals from the running counts that equal a recount of the rows, returns included', async () => {
    const other = await newCard({ type: 'DIGITAL_WALLET' }, program.apiKey);
    expect((await t.call('POST', '/v1/simulate/return', { apiKey: program.apiKey, body: { pan: other.pan, amount: 75, descriptor: 'Refund Desk' } })).status).toBe(200);
    await approved(authorize(other.pan, 50, {}, program.apiKey));
    const stranger = await t.createProgram('listing-stranger');
    const recount = async (where: string, values: unknown[]) =>
      Number((await t.pool.query(`select count(*) from transactions where program_token = $1 ${where}`, [program.programToken, ...values])).rows[0].count);
    const cases: [string, string, unknown[]][] = [
      ['', '', []],
      ['?result=APPROVED', "and result = 'APPROVED'", []],
      ['?result=DECLINED', "and result <> 'APPROVED'", []],
      [`?card_token=${card.token}`, 'and card_token = $2', [card.token]],
      [`?card_token=${other.token}&result=APPROVED`, "and card_token = $2 and result = 'APPROVED'", [other.token]],
      [`?card_token=${card.token}&result=DECLINED`, "and card_token = $2 and result <> 'APPROVED'", [card.token]],
    ];
    for (const [query, where, values] of cases) {
      const counted = (await list(query)).body.total_entries;
      expect({ query, total: counted }).toEqual({ query, total: await recount(where, values) });
    }
    expect((await list('')).body.total_entries).toBe(7);
    // Another program sees none of them, even asking by this program's card.
    expect((await t.call('GET', `/v1/transactions?card_token=${card.token}`, { apiKey: stranger.apiKey })).body.total_entries).toBe(0);
  });

  it.each([
    ['?result=PENDING', /result must be APPROVED or DECLINED/],
    ['?page_size=0', /page_size must be an integer from 1 to 1000/],
    ['?pagesize=1001', /pagesize must be an integer from 1 to 1000/],
    ['?page=0', /^page must be an integer from 1 to 2000000$/],
    ['?begin=2026-1-1', /begin must be a date written YYYY-MM-DD/],
    ['?card_token=nope', /card_token must be a 36-character version 4 UUID/],
    ['?status=pending', /^status must be one of PENDING, VOIDED, SETTLING, SETTLED, BOUNCED, DECLINED, EXPIRED$/],
    ['?starting_after=nope', /^starting_after must be a 36-character version 4 UUID$/],
  ])('answers 400 for %s', async (query, message) => {
    expectError(await list(query), 400, message);
  });

  it('shows a simulation in the very next list call (read your writes)', async () => {
    for (let i = 0; i < 5; i++) {
      const token = await approved(authorize(card.pan, 1, {}, program.apiKey));
      const listed = await list(`?page_size=1000&result=APPROVED`);
      expect(listed.body.data.map((tx: Json) => tx.token)).toContain(token);
      await simulate('void', { token, amount: 1 }, program.apiKey);
      expect((await transaction(token, program.apiKey)).status).toBe('VOIDED');
    }
  });
});

describe('amounts that would convert past 2^53 in the merchant currency', () => {
  it('refuses the advice and the clearing with a 400 naming amount, writes nothing, and the read models keep up', async () => {
    const MAX = Number.MAX_SAFE_INTEGER;
    const card = await newCard();
    const token = await approved(authorize(card.pan, 1, { merchant_amount: MAX, merchant_currency: 'EUR' }));
    const events = async () => (await t.pool.query<{ n: number }>('select count(*)::int as n from events')).rows[0].n;
    const before = await events();

    for (const action of ['authorization_advice', 'clearing']) {
      expectError(await simulate(action, { token, amount: MAX }), 400, /^amount 9007199254740991 comes to \d+ in the merchant currency/);
    }
    expect(await events()).toBe(before);

    // Before the domain refused it, such a clearing folded into a merchant amount no bigint column
    // holds: the projector stalled and every later write answered 503.
    expect((await simulate('clearing', { token, amount: 1 })).status).toBe(200);
    expect(await transaction(token)).toMatchObject({ status: 'SETTLING', amount: 1, merchant_amount: MAX });
    expect((await t.call('POST', '/v1/cards', { body: { type: 'SINGLE_USE' } })).status).toBe(200);
  });
});
