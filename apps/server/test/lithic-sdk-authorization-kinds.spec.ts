import Lithic from 'lithic';
import { ledgerForTests, TestLedger } from './test-ledger';

/**
 * Lithic's kinds of authorization message through its SDK: every `status` of
 * `simulateAuthorization`, and `simulateCreditAuthorizationAdvice` (with its deprecated name). Each
 * case checks the effect on the card's spend through the authorizations that follow, not only the
 * answer's shape (docs/decisions.md, "Kinds of authorization").
 */

/** No retries: a 409 or 5xx must fail the test, not be retried into a pass. */
function sdkOf(t: TestLedger, apiKey = t.apiKey): Lithic {
  return new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
}

describe("the lithic SDK: simulateAuthorization's statuses and credit authorization advice", () => {
  const t = ledgerForTests();
  let client: Lithic;
  beforeAll(() => {
    client = sdkOf(t);
  });

  /** A card that may spend 10.00 in its whole life. */
  async function cardWithLimit(type: 'DIGITAL_WALLET' | 'SINGLE_USE' = 'DIGITAL_WALLET'): Promise<string> {
    return (await client.cards.create({ type, spend_limit: 1000, spend_limit_duration: 'FOREVER' })).pan!;
  }

  const purchase = (pan: string, amount: number) => client.transactions.simulateAuthorization({ amount, descriptor: 'SHOP', pan });
  const declined = (pan: string, amount: number) => expect(purchase(pan, amount)).rejects.toMatchObject({ status: 422, error: { message: expect.stringMatching(/limit/i) } });
  const approved = async (pan: string, amount: number) => expect((await client.transactions.retrieve((await purchase(pan, amount)).token!)).status).toBe('PENDING');

  it('AUTHORIZATION (the default, named) holds its amount until cleared', async () => {
    const pan = await cardWithLimit();
    const held = await client.transactions.simulateAuthorization({ amount: 700, descriptor: 'SHOP', pan, status: 'AUTHORIZATION' });
    expect(await client.transactions.retrieve(held.token!)).toMatchObject({ status: 'PENDING', amount: 700, events: [{ type: 'AUTHORIZATION' }] });
    await declined(pan, 301);
    await approved(pan, 300);
  });

  it('BALANCE_INQUIRY is recorded, spends nothing, and leaves a single-use card unspent; its amount must be 0', async () => {
    const pan = await cardWithLimit('SINGLE_USE');
    await expect(client.transactions.simulateAuthorization({ amount: 100, descriptor: 'ATM', pan, status: 'BALANCE_INQUIRY' })).rejects.toMatchObject({
      status: 400,
      error: { message: 'amount must be 0 for a BALANCE_INQUIRY' },
    });
    const inquiry = await client.transactions.simulateAuthorization({ amount: 0, descriptor: 'ATM', pan, status: 'BALANCE_INQUIRY' });
    const recorded = await client.transactions.retrieve(inquiry.token!);
    expect(recorded).toMatchObject({ status: 'SETTLED', result: 'APPROVED', amount: 0, settled_amount: 0 });
    expect(recorded.events?.map((event) => [event.type, event.amount, event.effective_polarity])).toEqual([['BALANCE_INQUIRY', 0, 'DEBIT']]);
    // The whole limit is still there, and the single-use card is still unused.
    await approved(pan, 1000);
  });

  it('FINANCIAL_AUTHORIZATION is cleared at once and counts against the limit as spent', async () => {
    const pan = await cardWithLimit();
    const financial = await client.transactions.simulateAuthorization({ amount: 600, descriptor: 'ATM', pan, status: 'FINANCIAL_AUTHORIZATION' });
    const recorded = await client.transactions.retrieve(financial.token!);
    expect(recorded).toMatchObject({ status: 'SETTLING', amount: 600, settled_amount: 600 });
    expect(recorded.events?.map((event) => [event.type, event.amount, event.effective_polarity])).toEqual([['FINANCIAL_AUTHORIZATION', 600, 'DEBIT']]);
    // Nothing is pending to void or expire: it has cleared.
    await expect(client.transactions.simulateVoid({ token: financial.token! })).rejects.toMatchObject({ status: 409 });
    await declined(pan, 401);
    await approved(pan, 400);
    // Past the limit it is declined like any purchase.
    await expect(client.transactions.simulateAuthorization({ amount: 1, descriptor: 'ATM', pan, status: 'FINANCIAL_AUTHORIZATION' })).rejects.toMatchObject({ status: 422 });
  });

  it('FINANCIAL_CREDIT_AUTHORIZATION is money back at once: the spend it gives back is there for the next purchase', async () => {
    const pan = await cardWithLimit();
    await purchase(pan, 1000);
    await declined(pan, 1);
    const credit = await client.transactions.simulateAuthorization({ amount: 400, descriptor: 'REFUND', pan, status: 'FINANCIAL_CREDIT_AUTHORIZATION' });
    const recorded = await client.transactions.retrieve(credit.token!);
    expect(recorded).toMatchObject({ status: 'SETTLING', result: 'APPROVED', amount: -400, settled_amount: -400 });
    expect(recorded.events?.map((event) => [event.type, event.amount, event.effective_polarity])).toEqual([['FINANCIAL_CREDIT_AUTHORIZATION', 400, 'CREDIT']]);
    await declined(pan, 401);
    await approved(pan, 400);
  });

  it('CREDIT_AUTHORIZATION waits for its clearing: pending, it gives nothing back; cleared, it does', async () => {
    const pan = await cardWithLimit();
    await purchase(pan, 1000);
    const credit = await client.transactions.simulateAuthorization({ amount: 400, descriptor: 'REFUND', pan, status: 'CREDIT_AUTHORIZATION' });
    expect(await client.transactions.retrieve(credit.token!)).toMatchObject({ status: 'PENDING', amount: -400, authorization_amount: -400, events: [{ type: 'CREDIT_AUTHORIZATION', effective_polarity: 'CREDIT' }] });
    await declined(pan, 1);
    // Lithic simulates no void or expiry of a credit; neither do we.
    await expect(client.transactions.simulateVoid({ token: credit.token! })).rejects.toMatchObject({ status: 409 });
    await expect(client.transactions.expireAuthorization(credit.token!)).rejects.toMatchObject({ status: 409 });

    await client.transactions.simulateClearing({ token: credit.token! });
    expect(await client.transactions.retrieve(credit.token!)).toMatchObject({ status: 'SETTLING', amount: -400, settled_amount: -400 });
    await declined(pan, 401);
    await approved(pan, 400);
  });

  it('refuses with a credit status what only a purchase carries, and a credit of 0', async () => {
    const pan = await cardWithLimit();
    await expect(client.transactions.simulateAuthorization({ amount: 400, descriptor: 'REFUND', pan, status: 'CREDIT_AUTHORIZATION', pin: '1234' })).rejects.toMatchObject({
      status: 400,
      error: { message: 'pin cannot be sent with status CREDIT_AUTHORIZATION' },
    });
    await expect(client.transactions.simulateAuthorization({ amount: 0, descriptor: 'REFUND', pan, status: 'FINANCIAL_CREDIT_AUTHORIZATION' })).rejects.toMatchObject({ status: 400 });
    // Nothing was recorded: the whole limit is there.
    await approved(pan, 1000);
  });

  it('simulateCreditAuthorizationAdvice records a pending credit (CREDIT_AUTHORIZATION_ADVICE) that gives the spend back once cleared', async () => {
    const pan = await cardWithLimit();
    await purchase(pan, 1000);
    const advice = await client.transactions.simulateCreditAuthorizationAdvice({
      amount: 250,
      descriptor: 'COFFEE SHOP',
      pan,
      merchant_acceptor_city: 'SEATTLE',
      merchant_acceptor_country: 'USA',
      merchant_acceptor_id: 'XRKGDPOWEWQRRWU',
      merchant_acceptor_state: 'WA',
    });
    expect(advice.debugging_request_id).toBeDefined();
    const recorded = await client.transactions.retrieve(advice.token!);
    expect(recorded).toMatchObject({ status: 'PENDING', amount: -250, result: 'APPROVED' });
    expect(recorded.merchant).toMatchObject({ descriptor: 'COFFEE SHOP', city: 'SEATTLE', state: 'WA', country: 'USA', acceptor_id: 'XRKGDPOWEWQRRWU' });
    expect(recorded.events?.map((event) => [event.type, event.amount, event.effective_polarity])).toEqual([['CREDIT_AUTHORIZATION_ADVICE', 250, 'CREDIT']]);
    await declined(pan, 1);

    await client.transactions.simulateClearing({ token: advice.token! });
    await declined(pan, 251);
    await approved(pan, 250);

    // The events feed (the bodies webhooks and Kafka carry) shows both steps in Lithic's shape (in
    // either order: two events of one millisecond are ordered by token).
    const feed = (await client.events.list({ event_types: ['card_transaction.updated'], page_size: 100 })).data.filter((event) => (event.payload as { token?: string }).token === advice.token);
    expect(feed).toHaveLength(2);
    expect(feed.map((event) => event.payload)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'SETTLING', amount: -250, events: [expect.objectContaining({ type: 'CREDIT_AUTHORIZATION_ADVICE' }), expect.objectContaining({ type: 'CLEARING', amount: 250 })] }),
        expect.objectContaining({ status: 'PENDING', amount: -250, events: [expect.objectContaining({ type: 'CREDIT_AUTHORIZATION_ADVICE', effective_polarity: 'CREDIT' })] }),
      ]),
    );
  });

  it('the deprecated simulateCreditAuthorization is the same route', async () => {
    const pan = await cardWithLimit();
    await purchase(pan, 1000);
    const advice = await client.transactions.simulateCreditAuthorization({ amount: 300, descriptor: 'REFUND', pan });
    expect((await client.transactions.retrieve(advice.token!)).events?.map((event) => event.type)).toEqual(['CREDIT_AUTHORIZATION_ADVICE']);
    await client.transactions.simulateClearing({ token: advice.token!, amount: 300 });
    await approved(pan, 300);
    await declined(pan, 1);
  });

  it("a pending credit counts nothing against the program's monthly limit either; cleared, it gives that room back", async () => {
    // A program of its own, so its platform limit holds back no other test's authorizations.
    const { apiKey, programToken } = await t.createProgram('Credits against platform limits');
    const program = sdkOf(t, apiKey);
    await program.accounts.update(programToken, { monthly_spend_limit: 1000 });
    const pan = (await program.cards.create({ type: 'DIGITAL_WALLET' })).pan!;
    await program.transactions.simulateAuthorization({ amount: 1000, descriptor: 'SHOP', pan });
    const credit = await program.transactions.simulateAuthorization({ amount: 400, descriptor: 'REFUND', pan, status: 'CREDIT_AUTHORIZATION' });

    expect((await program.accounts.retrieveSpendLimits(programToken)).available_spend_limit).toMatchObject({ monthly: 0 });
    await expect(program.transactions.simulateAuthorization({ amount: 1, descriptor: 'SHOP', pan })).rejects.toMatchObject({ status: 422, error: { message: expect.stringMatching(/limit/i) } });

    await program.transactions.simulateClearing({ token: credit.token! });
    expect((await program.accounts.retrieveSpendLimits(programToken)).available_spend_limit).toMatchObject({ monthly: 400 });
    await program.transactions.simulateAuthorization({ amount: 400, descriptor: 'SHOP', pan });
  });
});
