import { ledgerForTests } from './test-ledger';

/**
 * Every decline reason of spec 2.6 provoked through the API, as docs/declines.md tells a user to.
 * Each test uses its own program, so program-wide settings never leak between tests.
 */
const t = ledgerForTests({});

type Json = Record<string, any>;

interface Program {
  apiKey: string;
  programToken: string;
  card(body?: Json): Promise<Json>;
  authorize(pan: string, amount: number, extra?: Json): Promise<{ status: number; body: any }>;
  patch(path: string, body: Json): Promise<{ status: number; body: any }>;
  giveBack(pan: string, amount: number): Promise<{ status: number; body: any }>;
}

async function program(): Promise<Program> {
  const created = await t.createProgram(`declines-${Math.random().toString(36).slice(2, 8)}`);
  const apiKey = created.apiKey;
  return {
    ...created,
    async card(body: Json = { type: 'DIGITAL_WALLET' }) {
      const answer = await t.call('POST', '/v1/cards', { body, apiKey });
      expect(answer.status).toBe(200);
      return answer.body;
    },
    authorize: (pan, amount, extra = {}) => t.call('POST', '/v1/simulate/authorize', { body: { pan, amount, descriptor: 'Store', ...extra }, apiKey }),
    giveBack: (pan, amount) => t.call('POST', '/v1/simulate/return', { body: { pan, amount, descriptor: 'Store' }, apiKey }),
    async patch(path, body) {
      const answer = await t.call('PATCH', path, { body, apiKey });
      expect(answer.status).toBe(200);
      return answer;
    },
  };
}

async function expectDeclined(answer: { status: number; body: any }, reason: string, p: Program) {
  expect({ status: answer.status, message: answer.body.message }).toEqual({ status: 422, message: expect.stringContaining(`(${reason})`) });
  const tx = await t.call('GET', `/v1/transactions/${answer.body.token}`, { apiKey: p.apiKey });
  expect(tx.body).toMatchObject({ status: 'DECLINED', result: reason });
  const listed = await t.call('GET', '/v1/transactions?result=DECLINED&page_size=1000', { apiKey: p.apiKey });
  expect(listed.body.data.map((row: Json) => row.token)).toContain(answer.body.token);
}

const approved = (answer: { status: number; body: any }) => expect(answer.status).toBe(200);

describe('decline reasons', () => {
  it('CARD_PAUSED and CARD_CLOSED follow the card state', async () => {
    const p = await program();
    const card = await p.card();
    await p.patch(`/v1/cards/${card.token}`, { state: 'PAUSED' });
    await expectDeclined(await p.authorize(card.pan, 100), 'CARD_PAUSED', p);
    await p.patch(`/v1/cards/${card.token}`, { state: 'OPEN' });
    approved(await p.authorize(card.pan, 100));
    await p.patch(`/v1/cards/${card.token}`, { state: 'CLOSED' });
    await expectDeclined(await p.authorize(card.pan, 100), 'CARD_CLOSED', p);
  });

  it('SINGLE_USE_RECHARGED: a single-use card closes after its first transaction', async () => {
    const p = await program();
    const card = await p.card({ type: 'SINGLE_USE' });
    approved(await p.authorize(card.pan, 100));
    expect((await t.call('GET', `/v1/cards/${card.token}`, { apiKey: p.apiKey })).body.state).toBe('CLOSED');
    await expectDeclined(await p.authorize(card.pan, 100), 'SINGLE_USE_RECHARGED', p);
  });

  it('UNAUTHORIZED_MERCHANT: a merchant-locked card is locked to its first merchant, hostname filled', async () => {
    const p = await program();
    const card = await p.card({ type: 'MERCHANT_LOCKED' });
    approved(await p.authorize(card.pan, 100, { descriptor: 'Netflix' }));
    expect((await t.call('GET', `/v1/cards/${card.token}`, { apiKey: p.apiKey })).body.hostname).toBe('Netflix');
    approved(await p.authorize(card.pan, 100, { descriptor: 'NETFLIX' }));
    await expectDeclined(await p.authorize(card.pan, 100, { descriptor: 'Hulu' }), 'UNAUTHORIZED_MERCHANT', p);
  });

  it.each(['TRANSACTION', 'MONTHLY', 'ANNUALLY', 'FOREVER'])('USER_TRANSACTION_LIMIT with a %s limit', async (duration) => {
    const p = await program();
    const card = await p.card({ type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: duration });
    approved(await p.authorize(card.pan, 600));
    if (duration === 'TRANSACTION') {
      approved(await p.authorize(card.pan, 1000));
      await expectDeclined(await p.authorize(card.pan, 1001), 'USER_TRANSACTION_LIMIT', p);
    } else {
      approved(await p.authorize(card.pan, 400));
      await expectDeclined(await p.authorize(card.pan, 1), 'USER_TRANSACTION_LIMIT', p);
    }
  });

  it('FOREVER limits get back what voids and returns give back', async () => {
    const p = await program();
    const card = await p.card({ type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'FOREVER' });
    const first = (await p.authorize(card.pan, 1000)).body.token;
    await expectDeclined(await p.authorize(card.pan, 100), 'USER_TRANSACTION_LIMIT', p);
    await t.call('POST', '/v1/simulate/void', { apiKey: p.apiKey, body: { token: first, amount: 400 } });
    approved(await p.authorize(card.pan, 400));
    await expectDeclined(await p.authorize(card.pan, 1), 'USER_TRANSACTION_LIMIT', p);
    await t.call('POST', '/v1/simulate/return', { apiKey: p.apiKey, body: { pan: card.pan, amount: 250, descriptor: 'Store' } });
    approved(await p.authorize(card.pan, 250));
    await expectDeclined(await p.authorize(card.pan, 1), 'USER_TRANSACTION_LIMIT', p);
  });

  it.each(['MONTHLY', 'ANNUALLY', 'FOREVER'])('USER_TRANSACTION_LIMIT: a return made before spending makes no room on a %s limit', async (duration) => {
    const p = await program();
    const card = await p.card({ type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: duration });
    expect((await p.giveBack(card.pan, 5000)).status).toBe(200);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 20; attempt++) statuses.push((await p.authorize(card.pan, 100)).status);
    expect(statuses).toEqual([...Array(10).fill(200), ...Array(10).fill(422)]);
    await expectDeclined(await p.authorize(card.pan, 1), 'USER_TRANSACTION_LIMIT', p);
  });

  it.each(['MONTHLY', 'ANNUALLY', 'FOREVER'])('USER_TRANSACTION_LIMIT: a return larger than the spend before it frees only that spend (%s)', async (duration) => {
    const p = await program();
    const card = await p.card({ type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: duration });
    approved(await p.authorize(card.pan, 700));
    expect((await p.giveBack(card.pan, 5000)).status).toBe(200);
    approved(await p.authorize(card.pan, 1000));
    await expectDeclined(await p.authorize(card.pan, 1), 'USER_TRANSACTION_LIMIT', p);
  });

  it('INVALID_CARD_DETAILS for a wrong CVV or expiry; the right ones approve', async () => {
    const p = await program();
    const card = await p.card();
    const wrongCvv = String((Number(card.cvv) + 1) % 1000).padStart(3, '0');
    approved(await p.authorize(card.pan, 100, { cvv: card.cvv, exp_month: card.exp_month, exp_year: card.exp_year }));
    await expectDeclined(await p.authorize(card.pan, 100, { cvv: wrongCvv }), 'INVALID_CARD_DETAILS', p);
    await expectDeclined(await p.authorize(card.pan, 100, { exp_month: card.exp_month, exp_year: String(Number(card.exp_year) + 1) }), 'INVALID_CARD_DETAILS', p);
  });

  it('INCORRECT_PIN for a wrong PIN, or a PIN on a card that has none', async () => {
    const p = await program();
    const card = await p.card({ type: 'DIGITAL_WALLET', pin: '4321' });
    approved(await p.authorize(card.pan, 100, { pin: '4321' }));
    await expectDeclined(await p.authorize(card.pan, 100, { pin: '1234' }), 'INCORRECT_PIN', p);
    const noPin = await p.card();
    await expectDeclined(await p.authorize(noPin.pan, 100, { pin: '1234' }), 'INCORRECT_PIN', p);
    await p.patch(`/v1/cards/${noPin.token}`, { pin: '1234' });
    approved(await p.authorize(noPin.pan, 100, { pin: '1234' }));
  });

  it('MERCHANT_BLACKLIST for a merchant on the program blocklist (descriptor or acceptor id)', async () => {
    const p = await program();
    const card = await p.card();
    await p.patch(`/v1/accounts/${p.programToken}`, { blocked_merchants: ['Casino Royale', 'ACQ-666'] });
    await expectDeclined(await p.authorize(card.pan, 100, { descriptor: 'casino royale' }), 'MERCHANT_BLACKLIST', p);
    await expectDeclined(await p.authorize(card.pan, 100, { descriptor: 'Harmless', merchant_acceptor_id: 'ACQ-666' }), 'MERCHANT_BLACKLIST', p);
    approved(await p.authorize(card.pan, 100, { descriptor: 'Bakery' }));
  });

  it('GLOBAL_TRANSACTION_LIMIT, GLOBAL_WEEKLY_LIMIT and GLOBAL_MONTHLY_LIMIT span all cards of the program', async () => {
    const p = await program();
    const [a, b] = [await p.card(), await p.card()];
    await p.patch(`/v1/accounts/${p.programToken}`, { spend_limit: { transaction: 500 } });
    await expectDeclined(await p.authorize(a.pan, 501), 'GLOBAL_TRANSACTION_LIMIT', p);
    await p.patch(`/v1/accounts/${p.programToken}`, { spend_limit: { transaction: 0, weekly: 1000 } });
    approved(await p.authorize(a.pan, 600));
    await expectDeclined(await p.authorize(b.pan, 401), 'GLOBAL_WEEKLY_LIMIT', p);
    await p.patch(`/v1/accounts/${p.programToken}`, { spend_limit: { weekly: 0, monthly: 800 } });
    await expectDeclined(await p.authorize(b.pan, 201), 'GLOBAL_MONTHLY_LIMIT', p);
    approved(await p.authorize(b.pan, 200));
  });

  it('GLOBAL_WEEKLY_LIMIT and GLOBAL_MONTHLY_LIMIT: a return undoes only spend made before it, on any card of the program', async () => {
    const p = await program();
    const [a, b] = [await p.card(), await p.card()];
    await p.patch(`/v1/accounts/${p.programToken}`, { spend_limit: { weekly: 1000, monthly: 1000 } });
    approved(await p.authorize(a.pan, 300));
    expect((await p.giveBack(b.pan, 5000)).status).toBe(200);
    approved(await p.authorize(b.pan, 600));
    approved(await p.authorize(a.pan, 400));
    await expectDeclined(await p.authorize(a.pan, 1), 'GLOBAL_WEEKLY_LIMIT', p);
    await p.patch(`/v1/accounts/${p.programToken}`, { spend_limit: { weekly: 0 } });
    await expectDeclined(await p.authorize(b.pan, 1), 'GLOBAL_MONTHLY_LIMIT', p);
    expect((await p.giveBack(a.pan, 250)).status).toBe(200);
    approved(await p.authorize(b.pan, 250));
    await expectDeclined(await p.authorize(b.pan, 1), 'GLOBAL_MONTHLY_LIMIT', p);
  });

  it('INACTIVE_ACCOUNT and ACCOUNT_STATE_TRANSACTION_FAIL follow the account state', async () => {
    const p = await program();
    const card = await p.card();
    await p.patch(`/v1/accounts/${p.programToken}`, { state: 'PAUSED' });
    await expectDeclined(await p.authorize(card.pan, 100), 'INACTIVE_ACCOUNT', p);
    await p.patch(`/v1/accounts/${p.programToken}`, { state: 'CLOSED' });
    await expectDeclined(await p.authorize(card.pan, 100), 'ACCOUNT_STATE_TRANSACTION_FAIL', p);
    await p.patch(`/v1/accounts/${p.programToken}`, { state: 'ACTIVE' });
    approved(await p.authorize(card.pan, 100));
  });

  it('BANK_NOT_VERIFIED, BANK_CONNECTION_ERROR and INSUFFICIENT_FUNDS follow the funding source state', async () => {
    const p = await program();
    const added = await t.call('POST', '/v1/funding_sources', { apiKey: p.apiKey, body: { account_name: 'Savings', account_number: '000123456789', state: 'PENDING' } });
    expect(added.body).toMatchObject({ account_name: 'Savings', last_four: '6789', state: 'PENDING', type: 'DEPOSITORY_CHECKING' });
    const card = await p.card({ type: 'DIGITAL_WALLET', funding_token: added.body.token });
    await expectDeclined(await p.authorize(card.pan, 100), 'BANK_NOT_VERIFIED', p);
    await p.patch(`/v1/funding_sources/${added.body.token}`, { state: 'DISCONNECTED' });
    await expectDeclined(await p.authorize(card.pan, 100), 'BANK_CONNECTION_ERROR', p);
    await p.patch(`/v1/funding_sources/${added.body.token}`, { state: 'INSUFFICIENT_FUNDS' });
    await expectDeclined(await p.authorize(card.pan, 100), 'INSUFFICIENT_FUNDS', p);
    await p.patch(`/v1/funding_sources/${added.body.token}`, { state: 'ENABLED' });
    approved(await p.authorize(card.pan, 100));
    const sources = await t.call('GET', '/v1/funding_sources', { apiKey: p.apiKey });
    expect(sources.body.data.map((s: Json) => s.token)).toContain(added.body.token);
  });

  it('FRAUD_ADVICE once a card exceeds the velocity rule', async () => {
    const p = await program();
    const card = await p.card();
    await p.patch(`/v1/accounts/${p.programToken}`, { velocity_limit: { max_authorizations: 3, window_seconds: 60 } });
    for (let i = 0; i < 3; i++) approved(await p.authorize(card.pan, 10));
    await expectDeclined(await p.authorize(card.pan, 10), 'FRAUD_ADVICE', p);
    await p.patch(`/v1/accounts/${p.programToken}`, { velocity_limit: null });
    approved(await p.authorize(card.pan, 10));
  });
});

describe('accounts', () => {
  it('shows and validates the program settings', async () => {
    const p = await program();
    const account = await t.call('GET', `/v1/accounts/${p.programToken}`, { apiKey: p.apiKey });
    expect(account.body).toMatchObject({ token: p.programToken, state: 'ACTIVE', spend_limit: { transaction: 0, weekly: 0, monthly: 0 }, velocity_limit: null, blocked_merchants: [] });
    const bad = await t.call('PATCH', `/v1/accounts/${p.programToken}`, { apiKey: p.apiKey, body: { velocity_limit: { max_authorizations: 0, window_seconds: 10 } } });
    expect(bad.status).toBe(400);
    const other = await program();
    expect((await t.call('GET', `/v1/accounts/${other.programToken}`, { apiKey: p.apiKey })).status).toBe(404);
    expect((await t.call('PATCH', `/v1/accounts/${other.programToken}`, { apiKey: p.apiKey, body: { state: 'CLOSED' } })).status).toBe(404);
    expect((await t.call('GET', '/v1/accounts', { apiKey: p.apiKey })).body.data.map((a: Json) => a.token)).toEqual([p.programToken]);
  });
});
