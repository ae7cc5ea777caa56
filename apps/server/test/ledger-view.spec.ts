import { runAdminCommand } from '@ledger/admin';
import { ledgerForTests } from './test-ledger';

/** The ledger view: pending and settled totals per card and funding source, equal to the events. */
const t = ledgerForTests({});

it('totals pending, settled, completed and bounced amounts per card and funding source, and verify checks them', async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
  const authorize = async (amount: number) => (await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount, descriptor: 'Shop' } })).body.token;
  const simulate = (action: string, body: object) => t.call('POST', `/v1/simulate/${action}`, { body });
  await authorize(1000); // stays pending
  const partlyVoided = await authorize(800);
  await simulate('void', { token: partlyVoided, amount: 300 }); // 500 pending
  const expired = await authorize(700);
  await simulate('void', { token: expired, amount: 200 });
  expect((await t.call('POST', `/v1/transactions/${expired}/expire_authorization`)).status).toBe(200); // nothing pending any more
  const cleared = await authorize(600);
  await simulate('clearing', { token: cleared, amount: 550 }); // settling 550
  const settled = await authorize(400);
  await simulate('clearing', { token: settled, amount: 400 });
  await simulate('settle', { token: settled }); // settled 400
  await simulate('return', { pan: card.pan, amount: 120, descriptor: 'Refund' }); // settling -120
  await simulate('authorize', { pan: card.pan, amount: 0, descriptor: 'ATM', status: 'BALANCE_INQUIRY' }); // settled 0
  await simulate('authorize', { pan: card.pan, amount: 90, descriptor: 'ATM', status: 'FINANCIAL_AUTHORIZATION' }); // settling 90
  await simulate('credit_authorization_advice', { pan: card.pan, amount: 70, descriptor: 'Refund' }); // pending -70

  const expected = { pending: 1430, settled: 920, settlement_complete: 400, bounced: 0 };
  expect((await t.call('GET', `/v1/cards/${card.token}/balance`)).body).toEqual({ token: card.token, ...expected });
  expect((await t.call('GET', `/v1/funding_sources/${card.funding.token}/balance`)).body).toEqual({ token: card.funding.token, ...expected });

  const clean = await runAdminCommand(t.ledger.app, ['verify']);
  expect(clean.output).toMatchObject({ intact: true, ledgerMatches: true });
  expect(clean.ok).toBe(true);

  await t.pool.query(`update transactions set amount = amount + 1 where token = $1`, [partlyVoided]);
  const tampered = await runAdminCommand(t.ledger.app, ['verify']);
  expect(tampered.ok).toBe(false);
  expect(tampered.output).toMatchObject({
    ledgerMatches: false,
    ledgerMismatches: expect.arrayContaining([
      expect.objectContaining({ by: 'card_token', token: card.token, fromEvents: expect.objectContaining({ pending: '1430' }), shown: expect.objectContaining({ pending: '1431' }) }),
      // The program's totals are its financial account's balance: the tampered row shows there too.
      expect.objectContaining({ by: 'program_token', token: card.account_token, fromEvents: expect.objectContaining({ pending: '1430' }), shown: expect.objectContaining({ pending: '1431' }) }),
    ]),
  });
});

it("answers 404 for another program's card or funding source", async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
  const other = await t.createProgram('other-ledger');
  expect((await t.call('GET', `/v1/cards/${card.token}/balance`, { apiKey: other.apiKey })).status).toBe(404);
  expect((await t.call('GET', `/v1/funding_sources/${card.funding.token}/balance`, { apiKey: other.apiKey })).status).toBe(404);
});

describe('totals past 2^53 (2^53 - 1 is the largest amount one request may carry)', () => {
  const MAX = 9007199254740991;
  const THREE_MAX = '27021597764222973'; // 3 x (2^53 - 1); a double would say ...972

  /** The answer's raw text: JSON.parse would round the very digits under test. */
  const rawBody = async (apiKey: string, path: string) => {
    const response = await fetch(`${t.baseUrl}${path}`, { headers: { authorization: `api-key ${apiKey}` } });
    expect(response.status).toBe(200);
    return response.text();
  };

  async function cardOfNewProgram(name: string) {
    const { apiKey } = await t.createProgram(name);
    const card = (await t.call('POST', '/v1/cards', { apiKey, body: { type: 'DIGITAL_WALLET' } })).body;
    const simulate = async (action: string, body: object) => {
      const answer = await t.call('POST', `/v1/simulate/${action}`, { apiKey, body });
      expect(answer.status).toBe(200);
      return answer.body;
    };
    const authorizeMax = async () => (await simulate('authorize', { pan: card.pan, amount: MAX, descriptor: 'Shop' })).token as string;
    const balances = async () => [await rawBody(apiKey, `/v1/cards/${card.token}/balance`), await rawBody(apiKey, `/v1/funding_sources/${card.funding.token}/balance`)];
    return { apiKey, card, simulate, authorizeMax, balances };
  }

  it('answers pending, settled and settlement_complete digit for digit, for the card and its funding source', async () => {
    const { apiKey, card, simulate, authorizeMax, balances } = await cardOfNewProgram('past-2-53');
    for (let i = 0; i < 3; i++) await authorizeMax();
    for (let i = 0; i < 3; i++) {
      const token = await authorizeMax();
      await simulate('clearing', { token, amount: MAX });
      await simulate('settle', { token });
    }
    for (const text of await balances()) {
      expect(text).toMatch(new RegExp(`"pending":${THREE_MAX}[,}]`));
      expect(text).toMatch(new RegExp(`"settled":${THREE_MAX}[,}]`));
      expect(text).toMatch(new RegExp(`"settlement_complete":${THREE_MAX}[,}]`));
      expect(text).toMatch(/"bounced":0[,}]/);
    }
    // The financial account's balances are the same sums, as exact: total -3 x MAX, available -6 x MAX.
    for (const path of [`/v1/cards/${card.token}/balances`, '/v1/balances', `/v1/cards/${card.token}/balances?balance_date=${encodeURIComponent(new Date().toISOString())}`]) {
      const text = await rawBody(apiKey, path);
      expect(text).toMatch(new RegExp(`"pending_amount":${THREE_MAX}[,}]`));
      expect(text).toMatch(new RegExp(`"total_amount":-${THREE_MAX}[,}]`));
      expect(text).toMatch(/"available_amount":-54043195528445946[,}]/);
    }
  });

  it('answers bounced digit for digit, and a negative settled total of returns', async () => {
    const { apiKey, card, simulate, authorizeMax, balances } = await cardOfNewProgram('past-2-53-bounced');
    for (let i = 0; i < 3; i++) await simulate('clearing', { token: await authorizeMax(), amount: MAX });
    const patched = await t.call('PATCH', `/v1/funding_sources/${card.funding.token}`, { apiKey, body: { state: 'DISCONNECTED' } });
    expect(patched.status).toBe(200);
    await simulate('settle', {});
    for (let i = 0; i < 3; i++) await simulate('return', { pan: card.pan, amount: MAX, descriptor: 'Refund' });
    for (const text of await balances()) {
      expect(text).toMatch(new RegExp(`"bounced":${THREE_MAX}[,}]`));
      expect(text).toMatch(new RegExp(`"settled":-${THREE_MAX}[,}]`));
    }
    // The events agree with the read model for these totals too (the first test tampered with another card).
    const verified = await runAdminCommand(t.ledger.app, ['verify']);
    const mismatches = (verified.output as { ledgerMismatches: { token: string }[] }).ledgerMismatches;
    expect(mismatches.filter((mismatch) => mismatch.token === card.token || mismatch.token === card.funding.token)).toEqual([]);
  });
});
