import Lithic from 'lithic';
import { ledgerForTests, TestLedger } from './test-ledger';

/**
 * Lithic's authorization expiry through its SDK: `transactions.expireAuthorization` and
 * `simulateVoid` with each `type`. Each case checks the effect on the card's spend through the
 * next authorization, not only the answer's shape (docs/decisions.md, "Authorization expiry").
 */

/** No retries: a 409 or 5xx must fail the test, not be retried into a pass. */
function sdkOf(t: TestLedger, apiKey = t.apiKey): Lithic {
  return new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
}

describe("the lithic SDK: an authorization's expiry and the void's types", () => {
  const t = ledgerForTests();
  let client: Lithic;
  beforeAll(() => {
    client = sdkOf(t);
  });

  /** A card that may spend 10.00 in its whole life, with one authorization holding all of it. */
  async function exhaustedCard(): Promise<{ pan: string; held: string; cardToken: string }> {
    const card = await client.cards.create({ type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'FOREVER' });
    const held = await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'HOTEL', pan: card.pan! });
    // The limit is exhausted: one cent more is declined.
    await expect(client.transactions.simulateAuthorization({ amount: 1, descriptor: 'KIOSK', pan: card.pan! })).rejects.toMatchObject({
      status: 422,
      error: { message: expect.stringMatching(/limit/i) },
    });
    return { pan: card.pan!, held: held.token!, cardToken: card.token };
  }

  it('expireAuthorization releases the pending amount: the transaction is EXPIRED and the next authorization is approved', async () => {
    const { pan, held } = await exhaustedCard();

    await client.transactions.expireAuthorization(held);

    const expired = await client.transactions.retrieve(held);
    expect(expired).toMatchObject({ status: 'EXPIRED', amount: 0, authorization_amount: 1000, settled_amount: 0, result: 'APPROVED' });
    expect(expired.events?.map((event) => [event.type, event.amount, event.effective_polarity])).toEqual([
      ['AUTHORIZATION', 1000, 'DEBIT'],
      ['AUTHORIZATION_EXPIRY', 1000, 'CREDIT'],
    ]);
    const next = await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'HOTEL', pan });
    expect((await client.transactions.retrieve(next.token!)).status).toBe('PENDING');
    // The list filters on Lithic's status.
    const listed = [];
    for await (const transaction of client.transactions.list({ status: 'EXPIRED' })) listed.push(transaction.token);
    expect(listed).toContain(held);
    // The events feed (what webhooks and Kafka carry too) has the expiry as a card_transaction.updated in Lithic's shape.
    const feed = (await client.events.list({ event_types: ['card_transaction.updated'], page_size: 100 })).data;
    const expiry = feed.find((event) => (event.payload as { token?: string; status?: string }).token === held && (event.payload as { status?: string }).status === 'EXPIRED');
    expect(expiry?.payload).toMatchObject({ token: held, status: 'EXPIRED', amount: 0, events: [{ type: 'AUTHORIZATION' }, { type: 'AUTHORIZATION_EXPIRY', amount: 1000, effective_polarity: 'CREDIT' }] });
  });

  it('expireAuthorization refuses like a void: not pending (409), an unknown token and another program\'s (404); the spend stays held', async () => {
    const { pan, held } = await exhaustedCard();
    const other = await t.createProgram('Other program');
    await expect(sdkOf(t, other.apiKey).transactions.expireAuthorization(held)).rejects.toMatchObject({ status: 404 });
    await expect(client.transactions.expireAuthorization('0b5e1a64-54c6-4d6a-9d2e-6a3c1f0e2b7d')).rejects.toMatchObject({ status: 404 });
    // Still held: the refusals moved nothing.
    await expect(client.transactions.simulateAuthorization({ amount: 1, descriptor: 'KIOSK', pan })).rejects.toMatchObject({ status: 422 });

    // Expired once, it is no longer pending; a cleared one neither.
    await client.transactions.expireAuthorization(held);
    await expect(client.transactions.expireAuthorization(held)).rejects.toMatchObject({ status: 409, error: { message: expect.stringContaining('is EXPIRED') } });
    const cleared = (await client.transactions.simulateAuthorization({ amount: 600, descriptor: 'HOTEL', pan })).token!;
    await client.transactions.simulateClearing({ token: cleared });
    await expect(client.transactions.expireAuthorization(cleared)).rejects.toMatchObject({ status: 409, error: { message: expect.stringContaining('is SETTLING') } });
    // The cleared 6.00 still counts: 4.00 of the limit is left, not more.
    await expect(client.transactions.simulateAuthorization({ amount: 401, descriptor: 'KIOSK', pan })).rejects.toMatchObject({ status: 422 });
  });

  it('simulateVoid type AUTHORIZATION_EXPIRY expires the whole pending amount (event AUTHORIZATION_EXPIRY); the next authorization is approved', async () => {
    const { pan, held } = await exhaustedCard();
    // Part of it voided first: the expiry then releases the rest.
    await client.transactions.simulateVoid({ token: held, amount: 400 });
    await expect(client.transactions.simulateAuthorization({ amount: 401, descriptor: 'KIOSK', pan })).rejects.toMatchObject({ status: 422 });
    // An expiry applies to all that is pending: another amount is refused, and nothing moves.
    await expect(client.transactions.simulateVoid({ token: held, amount: 100, type: 'AUTHORIZATION_EXPIRY' })).rejects.toMatchObject({
      status: 400,
      error: { message: expect.stringContaining('an authorization expires whole') },
    });

    await client.transactions.simulateVoid({ token: held, type: 'AUTHORIZATION_EXPIRY' });

    const expired = await client.transactions.retrieve(held);
    expect(expired).toMatchObject({ status: 'EXPIRED', amount: 0 });
    expect(expired.events?.map((event) => [event.type, event.amount])).toEqual([
      ['AUTHORIZATION', 1000],
      ['VOID', 400],
      ['AUTHORIZATION_EXPIRY', 600],
    ]);
    const next = await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'HOTEL', pan });
    expect((await client.transactions.retrieve(next.token!)).status).toBe('PENDING');
  });

  it('simulateVoid type AUTHORIZATION_EXPIRY with the pending amount itself is accepted', async () => {
    const { pan, held } = await exhaustedCard();
    await client.transactions.simulateVoid({ token: held, amount: 1000, type: 'AUTHORIZATION_EXPIRY' });
    expect((await client.transactions.retrieve(held)).status).toBe('EXPIRED');
    await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'HOTEL', pan });
  });

  it('simulateVoid type AUTHORIZATION_REVERSAL is the spec\'s void (event VOID): a partial one frees that much, no more', async () => {
    const { pan, held } = await exhaustedCard();
    await client.transactions.simulateVoid({ token: held, amount: 250, type: 'AUTHORIZATION_REVERSAL' });

    const voided = await client.transactions.retrieve(held);
    expect(voided).toMatchObject({ status: 'PENDING', amount: 750 });
    expect(voided.events?.map((event) => [event.type, event.amount, event.effective_polarity])).toEqual([
      ['AUTHORIZATION', 1000, 'DEBIT'],
      ['VOID', 250, 'CREDIT'],
    ]);
    await expect(client.transactions.simulateAuthorization({ amount: 251, descriptor: 'KIOSK', pan })).rejects.toMatchObject({ status: 422 });
    const next = await client.transactions.simulateAuthorization({ amount: 250, descriptor: 'KIOSK', pan });
    expect((await client.transactions.retrieve(next.token!)).status).toBe('PENDING');
  });
});
