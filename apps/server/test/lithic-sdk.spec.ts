import Lithic from 'lithic';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The official `lithic` SDK pointed at the service: it sends the bare api-key in Authorization,
 * JSON bodies with Lithic's field names, and the same paths as the spec. Field aliases accepted for
 * it, and what it cannot do here, are listed in docs/decisions.md ("Lithic SDK").
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let t: TestLedger;
let client: Lithic;
beforeAll(async () => {
  t = await startTestLedger();
  // No retries: a 409 or 5xx must fail the test, not be retried into a pass.
  client = new Lithic({ apiKey: t.apiKey, baseURL: t.baseUrl, maxRetries: 0 });
});
afterAll(async () => {
  await t?.stop();
});

describe('the lithic SDK against the service', () => {
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

  it("refuses, as the SDK's typed errors, what the spec does not have", async () => {
    // VIRTUAL is Lithic's reusable card; the spec's creatable types are SINGLE_USE, MERCHANT_LOCKED, DIGITAL_WALLET.
    const virtual = client.cards.create({ type: 'VIRTUAL' });
    await expect(virtual).rejects.toBeInstanceOf(Lithic.BadRequestError);
    await expect(virtual).rejects.toMatchObject({ status: 400, error: { message: expect.stringContaining('type must be one of') } });

    const card = await client.cards.create({ type: 'SINGLE_USE' });
    const auth = await client.transactions.simulateAuthorization({ amount: 100, descriptor: 'SHOP', pan: card.pan! });
    // Spec 4.2/4.3 make amount required; Lithic's "omit for the full amount" is not taken.
    await expect(client.transactions.simulateClearing({ token: auth.token! })).rejects.toMatchObject({ status: 400 });
    await expect(client.transactions.simulateVoid({ token: auth.token!, type: 'AUTHORIZATION_EXPIRY' })).rejects.toMatchObject({ status: 400 });
    await expect(client.transactions.simulateAuthorization({ amount: 100, descriptor: 'SHOP', pan: card.pan!, status: 'BALANCE_INQUIRY' })).rejects.toMatchObject({
      status: 400,
    });
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
    const stranger = new Lithic({ apiKey: '00000000-0000-4000-8000-000000000000', baseURL: t.baseUrl, maxRetries: 0 });
    await expect(stranger.cards.create({ type: 'SINGLE_USE' })).rejects.toBeInstanceOf(Lithic.AuthenticationError);
  });
});
