import Lithic from 'lithic';
import { ledgerForTests } from './test-ledger';

/**
 * The official `lithic` SDK setting the account's daily, monthly and lifetime spend limits, and
 * authorizations meeting them. How they map onto the platform's limits and the spec's decline
 * results is in docs/decisions.md ("Account limits: Lithic's and the platform's").
 */

const t = ledgerForTests();

/** A program of its own for each test: the limits span a whole program. */
async function programClient(name: string): Promise<{ client: Lithic; programToken: string; apiKey: string }> {
  const { apiKey, programToken } = await t.createProgram(name);
  return { client: new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 }), programToken, apiKey };
}

describe("accounts.update with Lithic's daily, monthly and lifetime spend limits", () => {
  const declinedWith = (result: string) => ({ status: 422, error: { message: expect.stringContaining(result) } });

  it('daily: shown back by retrieve and list; an authorization over it declines GLOBAL_WEEKLY_LIMIT, one under it is approved', async () => {
    const { client, programToken } = await programClient('sdk-limit-daily');
    const updated: Lithic.Account = await client.accounts.update(programToken, { daily_spend_limit: 1000 });
    expect(updated.spend_limit).toEqual({ transaction: 0, weekly: 0, monthly: 0, daily: 1000, lifetime: 0 });
    expect((await client.accounts.retrieve(programToken)).spend_limit).toMatchObject({ daily: 1000, monthly: 0, lifetime: 0 });
    const listed: Lithic.Account[] = [];
    for await (const account of client.accounts.list()) listed.push(account);
    expect(listed.map((account) => account.spend_limit.daily)).toEqual([1000]);

    const card = await client.cards.create({ type: 'VIRTUAL' });
    const first = await client.transactions.simulateAuthorization({ amount: 600, descriptor: 'SHOP', pan: card.pan! });
    expect((await client.transactions.retrieve(first.token!)).result).toBe('APPROVED');
    await expect(client.transactions.simulateAuthorization({ amount: 401, descriptor: 'SHOP', pan: card.pan! })).rejects.toMatchObject(declinedWith('GLOBAL_WEEKLY_LIMIT'));
    // The spec's result, and Lithic's own detailed result for its daily limit.
    const declined = [];
    for await (const transaction of client.transactions.list({ card_token: card.token, result: 'DECLINED' })) declined.push(transaction);
    expect(declined.map((transaction) => [transaction.result, transaction.events![0].detailed_results])).toEqual([['GLOBAL_WEEKLY_LIMIT', ['ACCOUNT_DAILY_SPEND_LIMIT_EXCEEDED']]]);
    const last = await client.transactions.simulateAuthorization({ amount: 400, descriptor: 'SHOP', pan: card.pan! });
    expect((await client.transactions.retrieve(last.token!)).result).toBe('APPROVED');

    expect(await client.accounts.retrieveSpendLimits(programToken)).toEqual({
      available_spend_limit: { daily: 0 },
      spend_limit: { daily: 1000 },
      spend_velocity: { daily: 1000 },
    });
  });

  it('monthly: the platform monthly limit; over it declines GLOBAL_MONTHLY_LIMIT', async () => {
    const { client, programToken } = await programClient('sdk-limit-monthly');
    expect((await client.accounts.update(programToken, { monthly_spend_limit: 900 })).spend_limit).toEqual({ transaction: 0, weekly: 0, monthly: 900, daily: 0, lifetime: 0 });
    const card = await client.cards.create({ type: 'VIRTUAL' });
    await expect(client.transactions.simulateAuthorization({ amount: 901, descriptor: 'SHOP', pan: card.pan! })).rejects.toMatchObject(declinedWith('GLOBAL_MONTHLY_LIMIT'));
    const approved = await client.transactions.simulateAuthorization({ amount: 900, descriptor: 'SHOP', pan: card.pan! });
    expect((await client.transactions.retrieve(approved.token!)).result).toBe('APPROVED');
  });

  it('lifetime: counts every card of the program; over it declines GLOBAL_MONTHLY_LIMIT; 0 lifts it', async () => {
    const { client, programToken } = await programClient('sdk-limit-lifetime');
    expect((await client.accounts.update(programToken, { lifetime_spend_limit: 1500 })).spend_limit).toMatchObject({ lifetime: 1500, daily: 0 });
    const [one, two] = [await client.cards.create({ type: 'VIRTUAL' }), await client.cards.create({ type: 'VIRTUAL' })];
    await client.transactions.simulateAuthorization({ amount: 1000, descriptor: 'SHOP', pan: one.pan! });
    await expect(client.transactions.simulateAuthorization({ amount: 501, descriptor: 'SHOP', pan: two.pan! })).rejects.toMatchObject(declinedWith('GLOBAL_MONTHLY_LIMIT'));
    const declined = [];
    for await (const transaction of client.transactions.list({ card_token: two.token, result: 'DECLINED' })) declined.push(transaction);
    expect(declined.map((transaction) => [transaction.result, transaction.events![0].detailed_results])).toEqual([['GLOBAL_MONTHLY_LIMIT', ['ACCOUNT_LIFETIME_SPEND_LIMIT_EXCEEDED']]]);
    const under = await client.transactions.simulateAuthorization({ amount: 500, descriptor: 'SHOP', pan: two.pan! });
    expect((await client.transactions.retrieve(under.token!)).result).toBe('APPROVED');

    expect((await client.accounts.update(programToken, { lifetime_spend_limit: 0 })).spend_limit.lifetime).toBe(0);
    const lifted = await client.transactions.simulateAuthorization({ amount: 5000, descriptor: 'SHOP', pan: two.pan! });
    expect((await client.transactions.retrieve(lifted.token!)).result).toBe('APPROVED');
  });

  it('all three in one update beside the platform limits; one left out keeps its value', async () => {
    const { client, programToken, apiKey } = await programClient('sdk-limit-all');
    await t.call('PATCH', `/v1/accounts/${programToken}`, { apiKey, body: { spend_limit: { transaction: 300, weekly: 7000 } } });
    const updated = await client.accounts.update(programToken, { daily_spend_limit: 2000, monthly_spend_limit: 9000, lifetime_spend_limit: 50_000 });
    expect(updated.spend_limit).toEqual({ transaction: 300, weekly: 7000, monthly: 9000, daily: 2000, lifetime: 50_000 });
    expect((await client.accounts.update(programToken, { daily_spend_limit: 2500 })).spend_limit).toEqual({ transaction: 300, weekly: 7000, monthly: 9000, daily: 2500, lifetime: 50_000 });
  });

  it('checks the limits as integer cents, as every cents field', async () => {
    const { client, programToken } = await programClient('sdk-limit-invalid');
    for (const field of ['daily_spend_limit', 'lifetime_spend_limit'] as const) {
      for (const value of [-1, 10.5, '100' as unknown as number]) {
        await expect(client.accounts.update(programToken, { [field]: value })).rejects.toMatchObject({ status: 400, error: { message: expect.stringContaining(field) } });
      }
    }
    expect((await client.accounts.retrieve(programToken)).spend_limit).toMatchObject({ daily: 0, lifetime: 0 });
  });
});
