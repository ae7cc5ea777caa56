import { CardVault } from '@ledger/card-vault';
import { isValidCardNumber } from '@ledger/domain';
import { ledgerForTests } from './test-ledger';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REQUEST_ID = /^[0-9a-f-]{36}$/;

const t = ledgerForTests();

const createCard = (body: Record<string, unknown> = { type: 'SINGLE_USE' }, apiKey?: string) => t.call('POST', '/v1/cards', { body, apiKey });

function expectError(answer: { status: number; body: any }, status: number, message: string | RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.body.debugging_request_id).toMatch(REQUEST_ID);
  expect(answer.body.message).toEqual(expect.stringMatching(message));
}

describe('POST /v1/cards', () => {
  it('returns a complete Card with every field in the spec format', async () => {
    const answer = await createCard({ type: 'MERCHANT_LOCKED', memo: 'Lunch', spend_limit: 5000, spend_limit_duration: 'MONTHLY', state: 'PAUSED' });
    expect(answer.status).toBe(200);
    const card = answer.body;
    expect(Object.keys(card).sort()).toEqual(
      [
        ...['created', 'cvv', 'exp_month', 'exp_year', 'funding', 'hostname', 'last_four', 'memo', 'pan', 'spend_limit', 'spend_limit_duration', 'state', 'token', 'type'],
        // Lithic's card fields beside the spec's
        ...['account_token', 'card_program_token', 'pin_status', 'auth_rule_tokens', 'cardholder_currency', 'pending_commands'],
        ...['bulk_order_token', 'digital_card_art_token', 'network_program_token', 'product_id', 'replacement_for', 'substatus'],
      ].sort(),
    );
    const programToken = (await t.call('GET', '/v1/accounts')).body.data[0].token;
    expect(card).toMatchObject({
      account_token: programToken,
      card_program_token: programToken,
      pin_status: 'NOT_SET',
      auth_rule_tokens: [],
      cardholder_currency: 'USD',
      pending_commands: [],
      bulk_order_token: null,
      digital_card_art_token: null,
      network_program_token: null,
      product_id: null,
      replacement_for: null,
      substatus: null,
    });
    expect(card.token).toMatch(UUID_V4);
    expect(card.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(Math.abs(Date.parse(card.created) - Date.now())).toBeLessThan(60_000);
    expect(card.pan).toMatch(/^\d{16}$/);
    expect(isValidCardNumber(card.pan)).toBe(true);
    expect(card.last_four).toBe(card.pan.slice(-4));
    expect(card.cvv).toMatch(/^\d{3}$/);
    expect(card.exp_month).toMatch(/^(0[1-9]|1[0-2])$/);
    expect(card.exp_year).toBe(String(new Date().getUTCFullYear() + 3));
    expect(card).toMatchObject({ type: 'MERCHANT_LOCKED', memo: 'Lunch', spend_limit: 5000, spend_limit_duration: 'MONTHLY', state: 'PAUSED', hostname: '' });
    expect(card.funding).toEqual({
      account_name: 'sandbox checking',
      created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      last_four: expect.stringMatching(/^\d{4}$/),
      nickname: '',
      state: 'ENABLED',
      token: expect.stringMatching(UUID_V4),
      type: 'DEPOSITORY_CHECKING',
    });
  });

  it.each(['VIRTUAL', 'UNLOCKED'])('creates a %s card (a multi-use card, Lithic\'s type beside the spec\'s)', async (type) => {
    const answer = await createCard({ type, spend_limit: 2500, spend_limit_duration: 'DAILY' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ type, spend_limit: 2500, spend_limit_duration: 'DAILY' });
    expect((await t.call('GET', `/v1/cards/${answer.body.token}`)).body).toMatchObject({ type, spend_limit_duration: 'DAILY' });
  });

  it('defaults to an OPEN card with no limit, TRANSACTION duration and an empty memo', async () => {
    const { body } = await createCard({ type: 'DIGITAL_WALLET' });
    expect(body).toMatchObject({ type: 'DIGITAL_WALLET', state: 'OPEN', spend_limit: 0, spend_limit_duration: 'TRANSACTION', memo: '' });
  });

  it('keeps a given expiry and a given funding source', async () => {
    const first = await createCard();
    const { status, body } = await createCard({ type: 'SINGLE_USE', exp_month: '07', exp_year: '2031', funding_token: first.body.funding.token });
    expect(status).toBe(200);
    expect(body).toMatchObject({ exp_month: '07', exp_year: '2031', funding: { token: first.body.funding.token } });
  });

  it('issues a different number and CVV per card', async () => {
    const cards = await Promise.all([createCard(), createCard(), createCard()]);
    expect(new Set(cards.map((c) => c.body.pan)).size).toBe(3);
    expect(new Set(cards.map((c) => c.body.token)).size).toBe(3);
  });

  it('answers at the singular path of the decline walkthrough too', async () => {
    const answer = await t.call('POST', '/v1/card', { body: { type: 'SINGLE_USE', spend_limit: 100 } });
    expect(answer.status).toBe(200);
    expect(answer.body.spend_limit).toBe(100);
  });

  it.each([
    [{}, /^type is required and must be one of SINGLE_USE, MERCHANT_LOCKED, DIGITAL_WALLET, UNLOCKED, VIRTUAL, PHYSICAL$/],
    [{ type: 'VIRTUALISH' }, /type must be one of/],
    [{ type: 'PHYSICAL' }, /shipping_address is required for a PHYSICAL card/],
    [{ type: 'SINGLE_USE', memo: 42 }, /^memo must be a string, not a number$/],
    [{ type: 'SINGLE_USE', funding_token: 'not-a-uuid' }, /funding_token must be a 36-character version 4 UUID/],
    [{ type: 'SINGLE_USE', funding_token: '6ba7b810-9dad-11d1-80b4-00c04fd430c8' }, /funding_token must be a 36-character version 4 UUID/],
    [{ type: 'SINGLE_USE', spend_limit: -1 }, /spend_limit must not be less than 0/],
    [{ type: 'SINGLE_USE', spend_limit: 10.5 }, /spend_limit must be an integer/],
    [{ type: 'SINGLE_USE', spend_limit: '100' }, /spend_limit must be an integer/],
    [{ type: 'SINGLE_USE', spend_limit: 2 ** 53 + 2 }, /spend_limit must be a number between -9007199254740991 and 9007199254740991/],
    [{ type: 'SINGLE_USE', spend_limit_duration: 'WEEKLY' }, /spend_limit_duration must be one of TRANSACTION, DAILY, MONTHLY, ANNUALLY, FOREVER/],
    [{ type: 'SINGLE_USE', state: 'CLOSED' }, /state must be one of OPEN, PAUSED/],
    [{ type: 'SINGLE_USE', state: 'PENDING_ACTIVATION' }, /state must be one of OPEN, PAUSED/],
    [{ type: 'SINGLE_USE', exp_month: '13', exp_year: '2030' }, /exp_month must be two digits, 01 to 12/],
    [{ type: 'SINGLE_USE', exp_month: '7', exp_year: '2030' }, /exp_month must be two digits/],
    [{ type: 'SINGLE_USE', exp_month: '00', exp_year: '2030' }, /exp_month must be two digits/],
    [{ type: 'SINGLE_USE', exp_month: '07', exp_year: '30' }, /exp_year must be a four-digit year/],
    [{ type: 'SINGLE_USE', exp_month: '07' }, /exp_year is required when the other expiry field is given/],
    [{ type: 'SINGLE_USE', exp_year: '2030' }, /exp_month is required when the other expiry field is given/],
    [{ type: 'SINGLE_USE', exp_month: '01', exp_year: '2020' }, /exp_month\/exp_year 01\/2020 is in the past/],
    [{ type: 'SINGLE_USE', colour: 'red' }, /colour is not a known field/],
  ])('answers 400 naming the field for %j', async (body, message) => {
    expectError(await createCard(body), 400, message);
  });

  it('answers 404 for a well-formed funding_token of no funding source of the program', async () => {
    expectError(await createCard({ type: 'SINGLE_USE', funding_token: '0b3f4a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b' }), 404, /Funding source .* not found/);
  });

  it('answers 400 for malformed JSON and for a body that is not an object', async () => {
    expectError(await t.call('POST', '/v1/cards', { rawBody: '{"type": "SINGLE_USE",' }), 400, 'Request body is not valid JSON');
    expectError(await t.call('POST', '/v1/cards', { rawBody: '["SINGLE_USE"]' }), 400, 'Request body must be a JSON object');
  });

  it('leaves nothing behind after a refused create', async () => {
    const before = (await t.call('GET', '/v1/cards?page_size=1000')).body.total_entries;
    await createCard({ type: 'SINGLE_USE', exp_month: '01', exp_year: '2020' });
    await createCard({ type: 'SINGLE_USE', funding_token: '0b3f4a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b' });
    const events = await t.pool.query(`select count(*)::int as n from events where stream_id like 'card%'`);
    expect((await t.call('GET', '/v1/cards?page_size=1000')).body.total_entries).toBe(before);
    // One CardCreated and one CardNumberAssigned per card that exists, nothing for the refused ones.
    expect(events.rows[0].n).toBe(2 * before);
  });
});

describe('card numbers', () => {
  it('are never given twice: a number another card holds is drawn again', async () => {
    const first = (await createCard({ type: 'VIRTUAL' })).body;
    const vault = t.ledger.app.get(CardVault);
    const draw = vault.newCardNumber.bind(vault);
    // The next draws repeat the first card's number twice, then the vault draws as usual.
    const draws = [first.pan, first.pan];
    const drawn: string[] = [];
    vault.newCardNumber = () => {
      const pan = draws.shift() ?? draw();
      drawn.push(pan);
      return pan;
    };
    try {
      const second = await createCard({ type: 'VIRTUAL' });
      expect(second.status).toBe(200);
      expect(second.body.pan).not.toBe(first.pan);
      // One draw for the decision made before claiming, then the two taken numbers, then a free one.
      expect(drawn.slice(1)).toEqual([first.pan, second.body.pan]);
    } finally {
      vault.newCardNumber = draw;
    }
    const registry = await t.pool.query(`select stream_id, count(*)::int as n from events where stream_id like 'cardnumber-%' and data->>'cardToken' = any($1) group by stream_id`, [
      [first.token],
    ]);
    expect(registry.rows).toEqual([{ stream_id: expect.any(String), n: 1 }]);
  });
});

describe('PATCH /v1/cards/{card_token}', () => {
  it('shows pin_status OK once the card has a PIN, NOT_SET before', async () => {
    const withPin = (await createCard({ type: 'VIRTUAL', pin: '1234' })).body;
    expect(withPin.pin_status).toBe('OK');
    const without = (await createCard({ type: 'VIRTUAL' })).body;
    expect(without.pin_status).toBe('NOT_SET');
    const patched = await t.call('PATCH', `/v1/cards/${without.token}`, { body: { pin: '4321' } });
    expect(patched.body.pin_status).toBe('OK');
  });

  it('changes memo, spend limit, duration and funding source, keeping the rest', async () => {
    const card = (await createCard({ type: 'MERCHANT_LOCKED', memo: 'before' })).body;
    const answer = await t.call('PATCH', `/v1/cards/${card.token}`, {
      body: { memo: 'after', spend_limit: 2500, spend_limit_duration: 'ANNUALLY', funding_token: card.funding.token },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...card, memo: 'after', spend_limit: 2500, spend_limit_duration: 'ANNUALLY' });
  });

  it('walks OPEN -> PAUSED -> OPEN -> CLOSED and refuses every change after CLOSED with 409', async () => {
    const { token } = (await createCard()).body;
    const patch = (body: object) => t.call('PATCH', `/v1/cards/${token}`, { body });
    expect((await patch({ state: 'PAUSED' })).body.state).toBe('PAUSED');
    expect((await patch({ state: 'OPEN' })).body.state).toBe('OPEN');
    expect((await patch({ state: 'CLOSED' })).body.state).toBe('CLOSED');
    expectError(await patch({ state: 'OPEN' }), 409, /is CLOSED/);
    expectError(await patch({ state: 'PAUSED' }), 409, /is CLOSED/);
    expectError(await patch({ memo: 'still closed' }), 409, /is CLOSED/);
    expect((await t.call('GET', `/v1/cards/${token}`)).body.state).toBe('CLOSED');
  });

  it('closes a PAUSED card', async () => {
    const { token } = (await createCard({ type: 'SINGLE_USE', state: 'PAUSED' })).body;
    expect((await t.call('PATCH', `/v1/cards/${token}`, { body: { state: 'CLOSED' } })).body.state).toBe('CLOSED');
  });

  it('records one event per real change and none for a no-op', async () => {
    const { token } = (await createCard()).body;
    await t.call('PATCH', `/v1/cards/${token}`, { body: { memo: '' } });
    await t.call('PATCH', `/v1/cards/${token}`, { body: { state: 'OPEN' } });
    await t.call('PATCH', `/v1/cards/${token}`, { body: { memo: 'x', state: 'PAUSED' } });
    const events = await t.pool.query(`select event_type from events where stream_id = $1 order by stream_version`, [`card-${token}`]);
    expect(events.rows.map((row) => row.event_type)).toEqual(['CardCreated', 'CardDetailsChanged', 'CardPaused']);
  });

  it.each([
    [{ state: 'PENDING_FULFILLMENT' }, /state must be one of OPEN, PAUSED, CLOSED/],
    [{ state: 'open' }, /state must be one of OPEN, PAUSED, CLOSED/],
    [{ spend_limit: -5 }, /spend_limit must not be less than 0/],
    [{ spend_limit_duration: 'WEEKLY' }, /spend_limit_duration must be one of/],
    [{ funding_token: 'abc' }, /funding_token must be a 36-character version 4 UUID/],
    [{ memo: ['x'] }, /memo must be a string/],
    [{ type: 'SINGLE_USE' }, /type is not a known field/],
  ])('answers 400 for %j', async (body, message) => {
    const { token } = (await createCard()).body;
    expectError(await t.call('PATCH', `/v1/cards/${token}`, { body }), 400, message);
  });

  it('answers 400 for a malformed card_token and 404 for an unknown one', async () => {
    expectError(await t.call('PATCH', '/v1/cards/123', { body: { memo: 'x' } }), 400, /card_token must be a 36-character version 4 UUID/);
    expectError(await t.call('PATCH', '/v1/cards/0b3f4a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b', { body: { memo: 'x' } }), 404, /not found/);
  });

  it('answers 404 for a funding source that is not the program', async () => {
    const { token } = (await createCard()).body;
    expectError(await t.call('PATCH', `/v1/cards/${token}`, { body: { funding_token: '0b3f4a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b' } }), 404, /Funding source/);
  });
});

describe('GET /v1/cards/{card_token}', () => {
  it('returns the card with its PAN and CVV', async () => {
    const created = (await createCard({ type: 'SINGLE_USE', memo: 'one' })).body;
    const answer = await t.call('GET', `/v1/cards/${created.token}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(created);
  });

  it('refuses other parameters with the card token', async () => {
    const { token } = (await createCard()).body;
    expectError(await t.call('GET', `/v1/cards/${token}?page=2`), 400, /^page is not a known query parameter$/);
  });

  it('answers 404 for an unknown card and 400 for a malformed token', async () => {
    expectError(await t.call('GET', '/v1/cards/0b3f4a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b'), 404, /not found/);
    expectError(await t.call('GET', '/v1/cards/not-a-token'), 400, /card_token/);
  });
});

describe('GET /v1/cards', () => {
  let program: { apiKey: string; programToken: string };
  let tokens: string[];

  beforeAll(async () => {
    program = await t.createProgram('pagination');
    tokens = [];
    for (const memo of ['first', 'second', 'third']) tokens.push((await createCard({ type: 'SINGLE_USE', memo }, program.apiKey)).body.token);
  });

  const list = (query: string, apiKey = program.apiKey) => t.call('GET', `/v1/cards${query}`, { apiKey });

  it('pages oldest first: 3 cards, page_size 2, page 2 holds only the third', async () => {
    const first = await list('?page_size=2&page=1');
    expect(first.body).toMatchObject({ page: 1, total_entries: 3, total_pages: 2 });
    expect(first.body.data.map((c: any) => c.token)).toEqual(tokens.slice(0, 2));
    const second = await list('?page_size=2&page=2');
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ page: 2, total_entries: 3, total_pages: 2 });
    expect(second.body.data.map((c: any) => c.memo)).toEqual(['third']);
  });

  it('defaults to page 1 of 50 and answers an empty page past the end', async () => {
    expect((await list('')).body).toMatchObject({ page: 1, total_entries: 3, total_pages: 1 });
    expect((await list('')).body.data).toHaveLength(3);
    expect((await list('?page=5')).body).toMatchObject({ data: [], page: 5, total_entries: 3, total_pages: 1 });
  });

  it('filters by creation date: begin inclusive, end exclusive', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await list(`?begin=${today}`)).body.total_entries).toBe(3);
    expect((await list(`?begin=${tomorrow}`)).body.total_entries).toBe(0);
    expect((await list(`?end=${today}`)).body.total_entries).toBe(0);
    expect((await list(`?end=${tomorrow}`)).body.total_entries).toBe(3);
    expect((await list(`?begin=${today}&end=${tomorrow}`)).body.total_entries).toBe(3);
  });

  it('filters by account: the program itself, or nothing', async () => {
    expect((await list(`?account_token=${program.programToken}`)).body.total_entries).toBe(3);
    expect((await list('?account_token=0b3f4a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b')).body.total_entries).toBe(0);
  });

  it.each([
    ['?page_size=0', /page_size must be an integer from 1 to 1000/],
    ['?page_size=1001', /page_size must be an integer from 1 to 1000/],
    ['?page_size=abc', /page_size must be an integer from 1 to 1000/],
    ['?page_size=2.5', /page_size must be an integer from 1 to 1000/],
    ['?page=0', /^page must be an integer from 1 to 2000000$/],
    ['?page=-1', /^page must be an integer from 1 to 2000000$/],
    ['?begin=2026-13-01', /begin must be a date written YYYY-MM-DD/],
    ['?begin=2026-02-30', /begin must be a date written YYYY-MM-DD/],
    ['?end=yesterday', /end must be a date written YYYY-MM-DD/],
    ['?account_token=42', /account_token must be a 36-character version 4 UUID/],
    ['?sort=asc', /^sort is not a known query parameter$/],
  ])('answers 400 for %s', async (query, message) => {
    expectError(await list(query), 400, message);
  });

  it('accepts the largest page size', async () => {
    expect((await list('?page_size=1000')).status).toBe(200);
  });
});

describe('program isolation', () => {
  it("gives another program's key 404 for the card and never lists it", async () => {
    const owner = await t.createProgram('owner');
    const other = await t.createProgram('other');
    const card = (await createCard({ type: 'SINGLE_USE' }, owner.apiKey)).body;
    expectError(await t.call('GET', `/v1/cards/${card.token}`, { apiKey: other.apiKey }), 404, /not found/);
    expectError(await t.call('PATCH', `/v1/cards/${card.token}`, { apiKey: other.apiKey, body: { state: 'CLOSED' } }), 404, /not found/);
    const listed = await t.call('GET', '/v1/cards?page_size=1000', { apiKey: other.apiKey });
    expect(listed.body.data.map((c: any) => c.token)).not.toContain(card.token);
    expect((await t.call('GET', `/v1/cards/${card.token}`, { apiKey: owner.apiKey })).body.state).toBe('OPEN');
  });

  it("refuses a card on another program's funding source", async () => {
    const owner = await t.createProgram('funding-owner');
    const other = await t.createProgram('funding-other');
    const ownerFunding = (await createCard({ type: 'SINGLE_USE' }, owner.apiKey)).body.funding.token;
    expectError(await createCard({ type: 'SINGLE_USE', funding_token: ownerFunding }, other.apiKey), 404, /Funding source/);
  });
});

describe('authentication', () => {
  it('accepts "api-key <KEY>" and the bare key', async () => {
    expect((await t.call('GET', '/v1/cards', { headers: { authorization: `api-key ${t.apiKey}` } })).status).toBe(200);
    expect((await t.call('GET', '/v1/cards', { headers: { authorization: t.apiKey } })).status).toBe(200);
  });

  it("answers 401 with Privacy's messages", async () => {
    expectError(await t.call('GET', '/v1/cards', { apiKey: null }), 401, 'Please provide API key in Authorization header');
    expectError(await t.call('POST', '/v1/cards', { apiKey: null, body: { type: 'SINGLE_USE' } }), 401, 'Please provide API key in Authorization header');
    expectError(await t.call('GET', '/v1/cards', { apiKey: '0b3f4a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b' }), 401, 'Could not find API key');
    expectError(await t.call('GET', '/v1/cards', { headers: { authorization: 'Bearer some token' } }), 401, /^Authorization scheme must be api-key/);
    expectError(await t.call('GET', '/v1/cards', { headers: { authorization: `Bearer ${t.apiKey}` } }), 401, /^Authorization scheme must be api-key: send `Authorization: api-key <KEY>` \(or the bare key\)$/);
  });

  it('stores api-keys only as hashes', async () => {
    const rows = await t.pool.query(`select key_hash from api_keys`);
    const everything = JSON.stringify(rows.rows) + JSON.stringify((await t.pool.query('select data from events')).rows);
    expect(rows.rows.length).toBeGreaterThan(0);
    expect(everything).not.toContain(t.apiKey);
  });
});

describe('service', () => {
  it('answers /health without an api-key', async () => {
    const answer = await t.call('GET', '/health', { apiKey: null });
    expect(answer).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it('answers unknown routes with the JSON error body', async () => {
    expectError(await t.call('GET', '/v1/nothing-here'), 404, /Cannot GET \/v1\/nothing-here/);
  });

  it('never stores or records a clear PAN', async () => {
    const card = (await createCard()).body;
    const events = JSON.stringify((await t.pool.query('select data, metadata from events')).rows);
    const cards = JSON.stringify((await t.pool.query('select * from cards')).rows);
    expect(events).not.toContain(card.pan);
    expect(cards).not.toContain(card.pan);
    expect(events).not.toContain(`"${card.cvv}"`);
  });
});
