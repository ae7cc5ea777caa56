import Lithic from 'lithic';
import { luhnCheckDigit } from '@ledger/domain';
import { ReadModelProjector } from '@ledger/projector';
import { eventually, LocalReceiver } from '@ledger/test-support';
import { ledgerForTests, startTestLedger, TestLedger } from './test-ledger';

/**
 * The official `lithic` SDK pointed at the service: it sends the bare api-key in Authorization,
 * JSON bodies with Lithic's field names, and the same paths as the spec. Field aliases accepted for
 * it, and what it cannot do here, are listed in docs/decisions.md ("Lithic SDK").
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** No retries: a 409 or 5xx must fail the test, not be retried into a pass. */
function sdkOf(t: TestLedger, apiKey = t.apiKey): Lithic {
  return new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
}

describe('the lithic SDK against the service', () => {
  // Each describe has its own ledger, one after the other: they share this worker's database.
  const t = ledgerForTests();
  let client: Lithic;
  beforeAll(() => {
    client = sdkOf(t);
  });

  it('creates, fetches and updates a card', async () => {
    const created = await client.cards.create({ type: 'MERCHANT_LOCKED', memo: 'SDK card', spend_limit: 5000, spend_limit_duration: 'MONTHLY', state: 'OPEN' });
    expect(created).toMatchObject({ type: 'MERCHANT_LOCKED', memo: 'SDK card', spend_limit: 5000, spend_limit_duration: 'MONTHLY', state: 'OPEN' });
    expect(created.token).toMatch(UUID);
    expect(created.pan).toMatch(/^\d{16}$/);
    expect(created.last_four).toBe(created.pan!.slice(-4));
    expect(created.funding?.token).toMatch(UUID);

    const fetched = await client.cards.retrieve(created.token);
    expect(fetched).toMatchObject({ token: created.token, memo: 'SDK card', state: 'OPEN', pan: created.pan });

    const updated = await client.cards.update(created.token, { memo: 'Renamed by the SDK', state: 'PAUSED', spend_limit: 7500 });
    expect(updated).toMatchObject({ token: created.token, memo: 'Renamed by the SDK', state: 'PAUSED', spend_limit: 7500 });
    expect(await client.cards.retrieve(created.token)).toMatchObject({ memo: 'Renamed by the SDK', state: 'PAUSED' });
  });

  it('simulates an authorization, a void and a clearing', async () => {
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });

    const voided = await client.transactions.simulateAuthorization({ amount: 1500, descriptor: 'COFFEE SHOP', pan: card.pan! });
    expect(voided.token).toMatch(UUID);
    expect(voided.debugging_request_id).toMatch(UUID);
    const voidAnswer = await client.transactions.simulateVoid({ token: voided.token!, amount: 1500 });
    expect(voidAnswer.debugging_request_id).toMatch(UUID);
    const afterVoid = await client.transactions.retrieve(voided.token!);
    expect(afterVoid).toMatchObject({ token: voided.token, status: 'VOIDED', result: 'APPROVED', amount: 0, authorization_amount: 1500 });
    expect(afterVoid.events?.map((event) => event.type)).toEqual(['AUTHORIZATION', 'VOID']);

    const cleared = await client.transactions.simulateAuthorization({ amount: 2000, descriptor: 'BOOK STORE', pan: card.pan! });
    const clearing = await client.transactions.simulateClearing({ token: cleared.token!, amount: 1800 });
    expect(clearing.debugging_request_id).toMatch(UUID);
    const afterClearing = await client.transactions.retrieve(cleared.token!);
    expect(afterClearing).toMatchObject({ token: cleared.token, status: 'SETTLING', amount: 1800, settled_amount: 1800, authorization_amount: 2000 });
    expect(afterClearing.events?.map((event) => event.type)).toEqual(['AUTHORIZATION', 'CLEARING']);
    expect(afterClearing.merchant).toMatchObject({ descriptor: 'BOOK STORE' });
  });

  it("accepts Lithic's names for the merchant fields, its status and its void type", async () => {
    const card = await client.cards.create({ type: 'SINGLE_USE' });
    const auth = await client.transactions.simulateAuthorization({
      amount: 990,
      descriptor: 'TAXI',
      pan: card.pan!,
      mcc: '4121',
      merchant_acceptor_city: 'LOS ANGELES',
      merchant_acceptor_state: 'CA',
      merchant_acceptor_country: 'USA',
      merchant_acceptor_id: 'TAXI-1',
      status: 'AUTHORIZATION',
    });
    const transaction = await client.transactions.retrieve(auth.token!);
    expect(transaction.merchant).toMatchObject({ city: 'LOS ANGELES', state: 'CA', country: 'USA', acceptor_id: 'TAXI-1', mcc: '4121', descriptor: 'TAXI' });
    await client.transactions.simulateVoid({ token: auth.token!, amount: 990, type: 'AUTHORIZATION_REVERSAL' });
    expect((await client.transactions.retrieve(auth.token!)).status).toBe('VOIDED');
  });

  it('voids and clears the full pending amount when amount is left out, as Lithic does; an advice still needs one', async () => {
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const authorize = async (amount: number) => (await client.transactions.simulateAuthorization({ amount, descriptor: 'SHOP', pan: card.pan! })).token!;

    // What is pending after each history: the authorization, an advice, a partial void, both.
    const histories: Array<[string, (token: string) => Promise<unknown>, number]> = [
      ['an authorization', async () => undefined, 1200],
      ['an advised authorization', (token) => client.transactions.simulateAuthorizationAdvice({ token, amount: 1700 }), 1700],
      ['a partly voided authorization', (token) => client.transactions.simulateVoid({ token, amount: 450 }), 750],
      [
        'an advised, then partly voided authorization',
        async (token) => {
          await client.transactions.simulateAuthorizationAdvice({ token, amount: 900 });
          await client.transactions.simulateVoid({ token, amount: 100 });
        },
        800,
      ],
    ];
    for (const [history, before, pending] of histories) {
      const toVoid = await authorize(1200);
      await before(toVoid);
      await client.transactions.simulateVoid({ token: toVoid });
      const voided = await client.transactions.retrieve(toVoid);
      expect({ history, status: voided.status, amount: voided.amount, last: voided.events?.at(-1) }).toMatchObject({
        history,
        status: 'VOIDED',
        amount: 0,
        last: { type: 'VOID', amount: pending },
      });

      const toClear = await authorize(1200);
      await before(toClear);
      await client.transactions.simulateClearing({ token: toClear });
      const cleared = await client.transactions.retrieve(toClear);
      expect({ history, status: cleared.status, amount: cleared.amount, settled: cleared.settled_amount, last: cleared.events?.at(-1) }).toMatchObject({
        history,
        status: 'SETTLING',
        amount: pending,
        settled: pending,
        last: { type: 'CLEARING', amount: pending },
      });
    }

    // The SDK's types make an advice's amount required; the service too.
    const advised = await authorize(500);
    await expect(client.transactions.simulateAuthorizationAdvice({ token: advised } as never)).rejects.toMatchObject({ status: 400 });
  });

  it('reverses a return with simulateReturnReversal: the return becomes VOIDED and the card loses the credit again', async () => {
    const card = await client.cards.create({ type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'FOREVER' });
    await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'SHOP', pan: card.pan! });

    // Reversed while SETTLING (as simulateReturn leaves it), and once SETTLED.
    for (const settleFirst of [false, true]) {
      const { token } = await client.transactions.simulateReturn({ amount: 1000, descriptor: 'SHOP', pan: card.pan! });
      if (settleFirst) await t.call('POST', '/v1/simulate/settle', { body: { token } });
      const answer = await client.transactions.simulateReturnReversal({ token: token! });
      expect(answer.debugging_request_id).toMatch(UUID);
      const reversed = await client.transactions.retrieve(token!);
      expect({ settleFirst, status: reversed.status, amount: reversed.amount, settled: reversed.settled_amount }).toEqual({ settleFirst, status: 'VOIDED', amount: 0, settled: 0 });
      expect(reversed.events?.map((event) => [event.type, event.amount])).toEqual([
        ['RETURN', 1000],
        ['RETURN_REVERSAL', 1000],
      ]);
      // Once only.
      await expect(client.transactions.simulateReturnReversal({ token: token! })).rejects.toMatchObject({ status: 409 });
    }

    // The returns gave the 1000 spent back, and their reversals took it again: nothing is left to spend.
    await expect(client.transactions.simulateAuthorization({ amount: 100, descriptor: 'SHOP', pan: card.pan! })).rejects.toMatchObject({
      status: 422,
      error: { message: expect.stringContaining('USER_TRANSACTION_LIMIT') },
    });

    // Only a return can be reversed; an unknown token is not found.
    const purchase = await client.transactions.simulateAuthorization({ amount: 100, descriptor: 'SHOP', pan: (await client.cards.create({ type: 'DIGITAL_WALLET' })).pan! });
    await expect(client.transactions.simulateReturnReversal({ token: purchase.token! })).rejects.toMatchObject({ status: 409 });
    await expect(client.transactions.simulateReturnReversal({ token: '0b5e1a64-54c6-4d6a-9d2e-6a3c1f0e2b7d' })).rejects.toMatchObject({ status: 404 });
  });

  it("refuses, as the SDK's typed errors, what the spec does not have", async () => {
    // A PHYSICAL card is Lithic's plastic: it cannot be issued without an address to send it to.
    const physical = client.cards.create({ type: 'PHYSICAL' });
    await expect(physical).rejects.toBeInstanceOf(Lithic.BadRequestError);
    await expect(physical).rejects.toMatchObject({ status: 400, error: { message: expect.stringContaining('shipping_address is required') } });

    const card = await client.cards.create({ type: 'SINGLE_USE' });
    await expect(
      client.transactions.simulateAuthorization({ amount: 100, descriptor: 'SHOP', pan: card.pan!, state: 'NY', merchant_acceptor_state: 'CA' } as never),
    ).rejects.toMatchObject({ status: 400, error: { message: 'state and merchant_acceptor_state name the same field and differ' } });
  });

  it('surfaces a declined authorization as a 422 carrying the transaction token', async () => {
    const card = await client.cards.create({ type: 'SINGLE_USE', spend_limit: 1000, spend_limit_duration: 'TRANSACTION' });
    const declined = client.transactions.simulateAuthorization({ amount: 5000, descriptor: 'BIG SPEND', pan: card.pan! });
    await expect(declined).rejects.toBeInstanceOf(Lithic.UnprocessableEntityError);
    await expect(declined).rejects.toMatchObject({ status: 422, error: { token: expect.stringMatching(UUID) } });
  });

  it('is refused without a valid key', async () => {
    const stranger = sdkOf(t, '00000000-0000-4000-8000-000000000000');
    await expect(stranger.cards.create({ type: 'SINGLE_USE' })).rejects.toBeInstanceOf(Lithic.AuthenticationError);
  });
});

/**
 * Every method of the SDK's cards, transactions, accounts, auth stream and spend-limit resources
 * that applies here, through the real SDK (docs/decisions.md has the table, with what does not
 * apply and why). Answers are typed by the SDK, so `tsc` over this file checks the fields read.
 */
describe('every applicable SDK method of cards, transactions, accounts, auth stream and spend limits', () => {
  const t = ledgerForTests();
  let client: Lithic;
  beforeAll(() => {
    client = sdkOf(t);
  });

  // The SDK's request type leaves DAILY out of SpendLimitDuration though its Card type lists it.
  const DAILY = 'DAILY' as Lithic.Cards.SpendLimitDuration;
  const pending = async (pan: string, amount: number): Promise<string> => (await client.transactions.simulateAuthorization({ amount, descriptor: 'SHOP', pan })).token!;

  it('cards: create (every type, DAILY), retrieve, update, list with its filters, retrieveSpendLimits', async () => {
    for (const type of ['VIRTUAL', 'UNLOCKED', 'SINGLE_USE', 'MERCHANT_LOCKED', 'DIGITAL_WALLET'] as const) {
      const card: Lithic.Card = await client.cards.create({ type, spend_limit: 1000, spend_limit_duration: DAILY, memo: `sdk ${type}` });
      expect(card).toMatchObject({ type, spend_limit_duration: 'DAILY', pin_status: 'NOT_SET', account_token: expect.stringMatching(UUID), card_program_token: expect.stringMatching(UUID) });
    }
    const card = await client.cards.create({ type: 'VIRTUAL', spend_limit: 1000, spend_limit_duration: DAILY, pin: '1234' });
    expect(card.pin_status).toBe('OK');
    expect(await client.cards.retrieve(card.token)).toMatchObject({ token: card.token, type: 'VIRTUAL', pan: card.pan });
    expect(await client.cards.update(card.token, { memo: 'renamed', spend_limit_duration: DAILY, spend_limit: 1200 })).toMatchObject({ memo: 'renamed', spend_limit: 1200 });

    // A VIRTUAL card is multi-use: two merchants, both approved, the card still OPEN.
    await client.transactions.simulateAuthorization({ amount: 300, descriptor: 'BAKERY', pan: card.pan! });
    await client.transactions.simulateAuthorization({ amount: 400, descriptor: 'GROCER', pan: card.pan! });
    expect((await client.cards.retrieve(card.token)).state).toBe('OPEN');
    const limits: Lithic.Cards.CardSpendLimits = await client.cards.retrieveSpendLimits(card.token);
    // `daily` is beyond the SDK's declared keys (annually, forever, monthly): DAILY is newer than the type.
    expect(limits).toEqual({ available_spend_limit: { daily: 500 }, spend_limit: { daily: 1200 }, spend_velocity: { daily: 700 } });
    await expect(client.transactions.simulateAuthorization({ amount: 501, descriptor: 'GROCER', pan: card.pan! })).rejects.toMatchObject({ status: 422 });

    const monthly = await client.cards.create({ type: 'VIRTUAL', spend_limit: 5000, spend_limit_duration: 'MONTHLY' });
    await pending(monthly.pan!, 1500);
    const monthlyLimits = await client.cards.retrieveSpendLimits(monthly.token);
    expect(monthlyLimits.available_spend_limit.monthly).toBe(3500);
    expect(monthlyLimits.spend_limit?.monthly).toBe(5000);
    expect(monthlyLimits.spend_velocity?.monthly).toBe(1500);
    expect(await client.cards.retrieveSpendLimits((await client.cards.create({ type: 'VIRTUAL' })).token)).toEqual({ available_spend_limit: {} });

    const listed: string[] = [];
    for await (const item of client.cards.list({ page_size: 2, state: 'OPEN', memo: 'sdk virtual' })) listed.push(item.token);
    expect(listed).toHaveLength(1);
  });

  it('transactions: retrieve and list, with the Lithic fields the SDK types', async () => {
    const card = await client.cards.create({ type: 'VIRTUAL' });
    const token = await pending(card.pan!, 2500);
    const transaction: Lithic.Transaction = await client.transactions.retrieve(token);
    expect(transaction).toMatchObject({
      card_token: card.token,
      account_token: card.account_token,
      amounts: { cardholder: { amount: 2500, currency: 'USD' }, hold: { amount: 2500 }, merchant: { amount: 2500, currency: 'USD' }, settlement: { amount: 0 } },
      pos: { entry_mode: { pan: 'UNKNOWN' }, terminal: { type: 'UNKNOWN' } },
      network: null,
      token_info: null,
    });
    expect(Date.parse(transaction.updated)).toBeGreaterThan(0);
    const listed: Lithic.Transaction[] = [];
    for await (const item of client.transactions.list({ card_token: card.token, result: 'APPROVED', status: 'PENDING', page_size: 1 })) listed.push(item);
    expect(listed.map((item) => item.token)).toEqual([token]);
  });

  it('every simulation, with only its required fields and with every optional field', async () => {
    const card = await client.cards.create({ type: 'VIRTUAL', pin: '4321' });
    const pan = card.pan!;

    // simulateAuthorization
    const bare = await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'BARE', pan });
    const full = await client.transactions.simulateAuthorization({
      amount: 1000,
      descriptor: 'FULL',
      pan,
      mcc: '5812',
      merchant_acceptor_city: 'PARIS',
      merchant_acceptor_country: 'FRA',
      merchant_acceptor_id: 'ACQ-1',
      merchant_acceptor_state: 'IDF',
      merchant_amount: 900,
      merchant_currency: 'EUR',
      partial_approval_capable: true,
      pin: '4321',
      status: 'AUTHORIZATION',
    });
    expect((await client.transactions.retrieve(full.token!)).merchant).toMatchObject({ city: 'PARIS', country: 'FRA', acceptor_id: 'ACQ-1', state: 'IDF', mcc: '5812' });

    // simulateAuthorizationAdvice (amount is required by the SDK)
    await client.transactions.simulateAuthorizationAdvice({ token: bare.token!, amount: 1100 });
    expect((await client.transactions.retrieve(bare.token!)).amount).toBe(1100);

    // simulateVoid: bare (the full pending amount), and with amount and type
    await client.transactions.simulateVoid({ token: full.token!, amount: 400, type: 'AUTHORIZATION_REVERSAL' });
    expect((await client.transactions.retrieve(full.token!)).amount).toBe(600);
    await client.transactions.simulateVoid({ token: full.token! });
    expect((await client.transactions.retrieve(full.token!)).status).toBe('VOIDED');

    // simulateClearing: bare (the full pending amount), and with amount
    await client.transactions.simulateClearing({ token: bare.token! });
    expect((await client.transactions.retrieve(bare.token!)).settled_amount).toBe(1100);
    const another = await pending(pan, 800);
    await client.transactions.simulateClearing({ token: another, amount: 700 });
    expect((await client.transactions.retrieve(another)).settled_amount).toBe(700);

    // simulateReturn (no optional fields) and simulateReturnReversal (none either)
    const returned = await client.transactions.simulateReturn({ amount: 300, descriptor: 'REFUND', pan });
    expect((await client.transactions.retrieve(returned.token!)).amount).toBe(-300);
    await client.transactions.simulateReturnReversal({ token: returned.token! });
    expect((await client.transactions.retrieve(returned.token!)).status).toBe('VOIDED');

    // simulateCreditAuthorizationAdvice: bare, and with every optional field (lithic-sdk-authorization-kinds.spec.ts follows its effect)
    const credit = await client.transactions.simulateCreditAuthorizationAdvice({ amount: 100, descriptor: 'CREDIT', pan });
    expect((await client.transactions.retrieve(credit.token!)).amount).toBe(-100);
    const fullCredit = await client.transactions.simulateCreditAuthorizationAdvice({
      amount: 200,
      descriptor: 'CREDIT',
      pan,
      mcc: '5812',
      merchant_acceptor_city: 'PARIS',
      merchant_acceptor_country: 'FRA',
      merchant_acceptor_id: 'ACQ-1',
      merchant_acceptor_state: 'IDF',
    });
    expect((await client.transactions.retrieve(fullCredit.token!)).merchant).toMatchObject({ city: 'PARIS', country: 'FRA', acceptor_id: 'ACQ-1', state: 'IDF', mcc: '5812' });
  });

  it('accounts: retrieve, update and list, with both spend_limit shapes in one object', async () => {
    const accounts: Lithic.Account[] = [];
    for await (const account of client.accounts.list()) accounts.push(account);
    expect(accounts).toHaveLength(1);
    const [account] = accounts;
    expect(account.spend_limit).toEqual({ transaction: 0, weekly: 0, monthly: 0, daily: 0, lifetime: 0 });
    expect(await client.accounts.retrieve(account.token)).toMatchObject({ token: account.token, state: 'ACTIVE' });
    expect(await client.accounts.update(account.token, { state: 'PAUSED' })).toMatchObject({ state: 'PAUSED' });
    expect(await client.accounts.update(account.token, { state: 'ACTIVE' })).toMatchObject({ state: 'ACTIVE' });
  });

  it('auth stream: retrieveSecret and rotateSecret', async () => {
    // A program of its own: an enrolled stream is asked about every authorization of its program.
    const { apiKey } = await t.createProgram('sdk-auth-stream');
    const own = sdkOf(t, apiKey);
    await expect(own.authStreamEnrollment.retrieveSecret()).rejects.toMatchObject({ status: 404 });
    await expect(own.authStreamEnrollment.rotateSecret()).rejects.toMatchObject({ status: 404 });
    const enrolled = await t.call('PUT', '/v1/auth_stream', { apiKey, body: { url: 'http://127.0.0.1:9/asa' } });
    expect(enrolled.status).toBe(200);

    const before: Lithic.AuthStreamSecret = await own.authStreamEnrollment.retrieveSecret();
    expect(before.secret).toBe(enrolled.body.secret);
    await own.authStreamEnrollment.rotateSecret();
    const after = await own.authStreamEnrollment.retrieveSecret();
    expect(after.secret).toMatch(/^whsec_/);
    expect(after.secret).not.toBe(before.secret);
    // The stream itself signs with the new secret from now on.
    expect((await t.call('GET', '/v1/auth_stream', { apiKey })).body).toMatchObject({ url: 'http://127.0.0.1:9/asa', secret: after.secret });
  });
});

describe('every applicable SDK method of accounts, delivery attempts, card search and transaction events', () => {
  let t: TestLedger;
  let receiver: LocalReceiver;
  beforeAll(async () => {
    // Each message's first delivery answers 500 and its retry 200: every message logs one FAILED and one SUCCESS attempt.
    const tried = new Set<string>();
    receiver = await new LocalReceiver((request) => {
      const id = String(request.headers['webhook-id']);
      if (tried.has(id)) return { status: 200, body: {} };
      tried.add(id);
      return { status: 500, body: {} };
    }).start();
    t = await startTestLedger({ WEBHOOK_RETRY_SCHEDULE: '0,100ms,100ms,100ms', WEBHOOK_POLL_MS: '50' });
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  /** A program of its own for each test: platform limits and subscriptions span a whole program. */
  async function programClient(name: string): Promise<{ client: Lithic; programToken: string }> {
    const { apiKey, programToken } = await t.createProgram(name);
    return { client: sdkOf(t, apiKey), programToken };
  }

  it('accounts.list pages by cursor: the one account, then nothing after it; a cursor naming another account is refused', async () => {
    const { client, programToken } = await programClient('sdk-accounts-list');
    const listed: Lithic.Account[] = [];
    for await (const account of client.accounts.list({ page_size: 1 })) listed.push(account);
    expect(listed.map((account) => account.token)).toEqual([programToken]);
    expect(await client.accounts.list({ starting_after: programToken })).toMatchObject({ data: [], has_more: false });
    expect(await client.accounts.list({ ending_before: programToken })).toMatchObject({ data: [], has_more: false });
    const other = (await programClient('sdk-accounts-other')).programToken;
    await expect(client.accounts.list({ starting_after: other })).rejects.toMatchObject({ status: 400, error: { message: `starting_after ${other} is not an account of this list` } });
    expect((await client.accounts.list({ begin: new Date(Date.now() + 60_000).toISOString() })).data).toEqual([]);
  });

  it("accounts.update takes Lithic's spend-limit fields: monthly is ours (daily and lifetime: lithic-sdk-limits.spec.ts)", async () => {
    const { client, programToken } = await programClient('sdk-accounts-update');
    const updated: Lithic.Account = await client.accounts.update(programToken, { monthly_spend_limit: 5000, daily_spend_limit: 0, lifetime_spend_limit: 0, state: 'ACTIVE' });
    expect(updated.spend_limit).toEqual({ transaction: 0, weekly: 0, monthly: 5000, daily: 0, lifetime: 0 });
    await expect(t.call('PATCH', `/v1/accounts/${programToken}`, { apiKey: client.apiKey, body: { monthly_spend_limit: 10, spend_limit: { monthly: 20 } } })).resolves.toMatchObject({
      status: 400,
      body: { message: 'spend_limit.monthly and monthly_spend_limit name the same limit and differ' },
    });
    // Lithic's comment, substatus and verification_address are not ours (docs/decisions.md).
    await expect(client.accounts.update(programToken, { comment: 'why' })).rejects.toMatchObject({ status: 400 });
    expect((await client.accounts.retrieve(programToken)).spend_limit.monthly).toBe(5000);
  });

  it('accounts.retrieveSpendLimits leaves exactly what the next authorization may spend', async () => {
    const { client, programToken } = await programClient('sdk-account-spend-limits');
    expect(await client.accounts.retrieveSpendLimits(programToken)).toEqual({ available_spend_limit: {}, spend_limit: {}, spend_velocity: {} });
    await t.call('PATCH', `/v1/accounts/${programToken}`, { apiKey: client.apiKey, body: { spend_limit: { weekly: 3000, monthly: 5000 } } });
    const card = await client.cards.create({ type: 'VIRTUAL' });
    await client.transactions.simulateAuthorization({ amount: 1200, descriptor: 'SHOP', pan: card.pan! });
    const voided = await client.transactions.simulateAuthorization({ amount: 500, descriptor: 'SHOP', pan: card.pan! });
    await client.transactions.simulateVoid({ token: voided.token! });
    const limits: Lithic.AccountSpendLimits = await client.accounts.retrieveSpendLimits(programToken);
    expect(limits).toEqual({
      available_spend_limit: { weekly: 1800, monthly: 3800 },
      spend_limit: { weekly: 3000, monthly: 5000 },
      spend_velocity: { weekly: 1200, monthly: 1200 },
    });
    // The class of the figure: one cent more than `available` is declined by the platform limit, `available` itself is approved.
    const available = (limits.available_spend_limit as { weekly: number }).weekly;
    await expect(client.transactions.simulateAuthorization({ amount: available + 1, descriptor: 'SHOP', pan: card.pan! })).rejects.toMatchObject({
      status: 422,
      error: { message: expect.stringContaining('GLOBAL_WEEKLY_LIMIT') },
    });
    await client.transactions.simulateAuthorization({ amount: available, descriptor: 'SHOP', pan: card.pan! });
    expect((await client.accounts.retrieveSpendLimits(programToken)).available_spend_limit).toEqual({ weekly: 0, monthly: 2000 });
    const other = (await programClient('sdk-account-spend-other')).programToken;
    await expect(client.accounts.retrieveSpendLimits(other)).rejects.toMatchObject({ status: 404 });
  });

  it("cards.searchByPan finds the program's own card; another program's card, a number no card has and a bad check digit answer as the API says", async () => {
    const { client } = await programClient('sdk-search-by-pan');
    const card = await client.cards.create({ type: 'VIRTUAL', memo: 'searched' });
    const found: Lithic.Card = await client.cards.searchByPan({ pan: card.pan! });
    expect(found).toMatchObject({ token: card.token, memo: 'searched', pan: card.pan });

    const stranger = await (await programClient('sdk-search-other')).client.cards.create({ type: 'VIRTUAL' });
    const otherProgram = await client.cards.searchByPan({ pan: stranger.pan! }).catch((error: unknown) => error);
    const unknownNumber = await client.cards.searchByPan({ pan: `411111111111111${luhnCheckDigit('411111111111111')}` }).catch((error: unknown) => error);
    // Not a PAN oracle: another program's card and a number nobody has are told apart by nothing.
    expect(otherProgram).toMatchObject({ status: 404, error: { message: 'No card with this pan was found' } });
    const answer = (error: unknown) => {
      const { status, error: body } = error as { status: number; error: Record<string, unknown> };
      const { debugging_request_id: _requestId, ...rest } = body;
      return { status, ...rest };
    };
    expect(answer(otherProgram)).toEqual(answer(unknownNumber));
    const luhnBroken = `${card.pan!.slice(0, 15)}${(Number(card.pan!.slice(15)) + 1) % 10}`;
    await expect(client.cards.searchByPan({ pan: luhnBroken })).rejects.toMatchObject({ status: 400 });
    await expect(client.cards.searchByPan({ pan: '1234' })).rejects.toMatchObject({ status: 400, error: { message: 'pan must be a 16-digit card number' } });
  });

  it("transaction events carry Lithic's per-event fields, typed by the SDK", async () => {
    const { client } = await programClient('sdk-transaction-events');
    const card = await client.cards.create({ type: 'VIRTUAL' });
    const auth = await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'PARIS CAFE', pan: card.pan!, merchant_amount: 900, merchant_currency: 'EUR' });
    await client.transactions.simulateVoid({ token: auth.token!, amount: 200 });
    await client.transactions.simulateClearing({ token: auth.token!, amount: 600 });
    const events: Lithic.Transaction.Event[] = (await client.transactions.retrieve(auth.token!)).events!;
    const lithicFields = events.map(({ type, amounts, detailed_results, effective_polarity, network_info, rule_results }) => ({ type, amounts, detailed_results, effective_polarity, network_info, rule_results }));
    const rate = '1.111111'; // cardholder per merchant amount: 1000 / 900
    expect(lithicFields).toEqual([
      {
        type: 'AUTHORIZATION',
        amounts: { cardholder: { amount: 1000, conversion_rate: rate, currency: 'USD' }, merchant: { amount: 900, currency: 'EUR' }, settlement: null },
        detailed_results: ['APPROVED'],
        effective_polarity: 'DEBIT',
        network_info: null,
        rule_results: [],
      },
      {
        type: 'VOID',
        amounts: { cardholder: { amount: 200, conversion_rate: rate, currency: 'USD' }, merchant: { amount: 180, currency: 'EUR' }, settlement: null },
        detailed_results: ['APPROVED'],
        effective_polarity: 'CREDIT',
        network_info: null,
        rule_results: [],
      },
      {
        type: 'CLEARING',
        amounts: { cardholder: { amount: 600, conversion_rate: rate, currency: 'USD' }, merchant: { amount: 540, currency: 'EUR' }, settlement: { amount: 600, conversion_rate: rate, currency: 'USD' } },
        detailed_results: ['APPROVED'],
        effective_polarity: 'DEBIT',
        network_info: null,
        rule_results: [],
      },
    ]);

    await client.cards.update(card.token, { state: 'PAUSED' });
    const declined = await client.transactions.simulateAuthorization({ amount: 100, descriptor: 'SHOP', pan: card.pan! }).catch((error: { error: { token: string } }) => error.error.token);
    const [declinedEvent] = (await client.transactions.retrieve(declined as string)).events!;
    expect(declinedEvent).toMatchObject({ result: 'CARD_PAUSED', detailed_results: ['CARD_PAUSED'], effective_polarity: 'DEBIT' });
  });

  it('events.subscriptions.listAttempts walks the delivery log by cursor, with the MessageAttempt fields and its status filter', async () => {
    const { client } = await programClient('sdk-attempts');
    const subscription = await client.events.subscriptions.create({ url: `${receiver.baseUrl}/attempts`, event_types: ['card.created'] });
    for (let i = 0; i < 3; i += 1) await client.cards.create({ type: 'VIRTUAL' });
    const path = `/v1/event_subscriptions/${subscription.token}`;
    await eventually('three delivered messages', async () => {
      const { body } = await t.call('GET', `${path}/messages?status=delivered`, { apiKey: client.apiKey });
      return body.total_entries === 3;
    });
    const { body: everything } = await t.call('GET', `${path}/attempts?page_size=1000`, { apiKey: client.apiKey });
    expect(everything.total_entries).toBe(6);

    const walked: Lithic.MessageAttempt[] = [];
    for await (const attempt of client.events.subscriptions.listAttempts(subscription.token, { page_size: 2 })) walked.push(attempt);
    expect(walked.map((attempt) => attempt.token)).toEqual(everything.data.map((attempt: { token: string }) => attempt.token));
    expect(new Set(walked.map((attempt) => attempt.token)).size).toBe(6);
    for (const attempt of walked) {
      expect(attempt).toMatchObject({ token: expect.stringMatching(UUID), event_subscription_token: subscription.token, event_token: expect.stringMatching(UUID), url: `${receiver.baseUrl}/attempts`, response: '' });
      expect(Date.parse(attempt.created)).toBeGreaterThan(0);
      expect([attempt.status, attempt.response_status_code]).toEqual(attempt.status === 'SUCCESS' ? ['SUCCESS', 200] : ['FAILED', 500]);
    }
    // Each message's two attempts name the same event, the message's; the three messages, three events.
    const eventsByMessage = new Map<string, Set<string>>();
    for (const attempt of everything.data as { message_token: string; event_token: string }[]) {
      eventsByMessage.set(attempt.message_token, (eventsByMessage.get(attempt.message_token) ?? new Set()).add(attempt.event_token));
    }
    expect([...eventsByMessage.values()].map((events) => events.size)).toEqual([1, 1, 1]);
    expect(new Set([...eventsByMessage.values()].flatMap((events) => [...events])).size).toBe(3);

    const succeeded: Lithic.MessageAttempt[] = [];
    for await (const attempt of client.events.subscriptions.listAttempts(subscription.token, { status: 'SUCCESS', page_size: 1 })) succeeded.push(attempt);
    expect(succeeded.map((attempt) => attempt.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect((await client.events.subscriptions.listAttempts(subscription.token, { status: 'FAILED' })).data.map((attempt) => attempt.response_status_code)).toEqual([500, 500, 500]);
    expect((await client.events.subscriptions.listAttempts(subscription.token, { status: 'PENDING' })).data).toEqual([]);
    expect((await client.events.subscriptions.listAttempts(subscription.token, { begin: new Date(Date.now() + 60_000).toISOString() })).data).toEqual([]);

    // Walking back from the oldest attempt's cursor yields the rest, in the list order.
    const oldest = walked[walked.length - 1].token;
    const back: string[] = [];
    for await (const attempt of client.events.subscriptions.listAttempts(subscription.token, { ending_before: oldest, page_size: 4 })) back.push(attempt.token);
    expect(back.sort()).toEqual(walked.slice(0, 5).map((attempt) => attempt.token).sort());
  });
});

/**
 * Retries, with the SDK's default settings (2 retries; it retries 408, 409, 429 and 5xx unless
 * `X-Should-Retry` says otherwise, after `Retry-After`). An answer no retry can change must fail at
 * once, with one request reaching the server: the server's own request log counts them. The rate
 * limiter is on, as it is outside the sandbox: it once sent `Retry-After: 1` with every answer.
 */
describe('the lithic SDK retrying', () => {
  interface LoggedRequest {
    readonly method: string;
    readonly path: string;
    readonly status: number;
  }

  function requestLog(lines: string[]): LoggedRequest[] {
    return lines
      .flatMap((chunk) => chunk.split('\n'))
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { req?: { method: string; path: string }; res?: { status: number } })
      .filter((line) => line.req && line.res)
      .map((line) => ({ method: line.req!.method, path: line.req!.path, status: line.res!.status }));
  }

  /** Runs the SDK call, which must fail with `status`, and returns how many requests it made. */
  async function requestsMadeBy(lines: string[], method: string, path: string, status: number, call: () => Promise<unknown>): Promise<number> {
    const count = () => requestLog(lines).filter((logged) => logged.method === method && logged.path === path).length;
    const before = count();
    await expect(call()).rejects.toMatchObject({ status });
    // The SDK has given up, so every request it made was answered: wait for the log line, then count.
    await eventually(`${method} ${path} in the request log`, async () => count() > before);
    expect(requestLog(lines).filter((logged) => logged.method === method && logged.path === path).slice(before).map((logged) => logged.status)).toEqual([status]);
    return count() - before;
  }

  describe('answers no retry can change', () => {
    const lines: string[] = [];
    const u = ledgerForTests({ RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_PER_MINUTE: '100000' }, { logDestination: { write: (line: string) => void lines.push(line) } });
    let sdk: Lithic;
    beforeAll(() => {
      // The SDK's own retries: what these tests count.
      sdk = new Lithic({ apiKey: u.apiKey, baseURL: u.baseUrl });
    });

    it('fails at once on a 409: an update of a CLOSED card', async () => {
      const card = await sdk.cards.create({ type: 'DIGITAL_WALLET' });
      await sdk.cards.update(card.token, { state: 'CLOSED' });
      expect(await requestsMadeBy(lines, 'PATCH', `/v1/cards/${card.token}`, 409, () => sdk.cards.update(card.token, { memo: 'too late' }))).toBe(1);
    });

    it('fails at once on a 409: a void of a transaction that is no longer pending', async () => {
      const card = await sdk.cards.create({ type: 'DIGITAL_WALLET' });
      const auth = await sdk.transactions.simulateAuthorization({ amount: 100, descriptor: 'SHOP', pan: card.pan! });
      await sdk.transactions.simulateVoid({ token: auth.token!, amount: 100 });
      expect(await requestsMadeBy(lines, 'POST', '/v1/simulate/void', 409, () => sdk.transactions.simulateVoid({ token: auth.token!, amount: 100 }))).toBe(1);
    });

    it('fails at once on a 400, a 404 and a 422 decline', async () => {
      expect(await requestsMadeBy(lines, 'POST', '/v1/cards', 400, () => sdk.cards.create({ type: 'PHYSICAL' }))).toBe(1);
      const unknown = '00000000-0000-4000-8000-00000000abcd';
      expect(await requestsMadeBy(lines, 'GET', `/v1/cards/${unknown}`, 404, () => sdk.cards.retrieve(unknown))).toBe(1);
      const card = await sdk.cards.create({ type: 'SINGLE_USE', spend_limit: 1000, spend_limit_duration: 'TRANSACTION' });
      expect(await requestsMadeBy(lines, 'POST', '/v1/simulate/authorize', 422, () => sdk.transactions.simulateAuthorization({ amount: 5000, descriptor: 'BIG', pan: card.pan! }))).toBe(1);
    });

    it('fails at once on a 401', async () => {
      const stranger = new Lithic({ apiKey: '00000000-0000-4000-8000-000000000000', baseURL: u.baseUrl });
      expect(await requestsMadeBy(lines, 'GET', '/v1/cards', 401, () => stranger.cards.list())).toBe(1);
    });
  });

  describe('a write whose read model is behind (503)', () => {
    const lines: string[] = [];
    const u = ledgerForTests({ READ_YOUR_WRITES_TIMEOUT_MS: '2000' }, { logDestination: { write: (line: string) => void lines.push(line) } });

    it('is not repeated (that would make a second card), and says when to read with Retry-After', async () => {
      // The read models stop moving: every write is recorded and then answers 503 after 2 s.
      const projector = u.ledger.app.get(ReadModelProjector);
      await projector.stop();
      const sdk = new Lithic({ apiKey: u.apiKey, baseURL: u.baseUrl });
      const created = async () => (await u.pool.query<{ n: number }>(`select count(*)::int as n from events where event_type = 'CardCreated'`)).rows[0].n;
      const before = await created();
      expect(await requestsMadeBy(lines, 'POST', '/v1/cards', 503, () => sdk.cards.create({ type: 'DIGITAL_WALLET' }))).toBe(1);
      expect(await created()).toBe(before + 1);

      const answer = await u.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } });
      expect({ status: answer.status, retryAfter: answer.headers.get('retry-after'), shouldRetry: answer.headers.get('x-should-retry') }).toEqual({
        status: 503,
        retryAfter: '1',
        shouldRetry: 'false',
      });
      projector.start();
    }, 30_000);
  });
});
