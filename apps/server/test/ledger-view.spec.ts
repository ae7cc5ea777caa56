import { runAdminCommand } from '@ledger/admin';
import { startTestLedger, TestLedger } from './test-ledger';

/** The ledger view: pending and settled totals per card and funding source, equal to the events. */
let t: TestLedger;
beforeAll(async () => {
  t = await startTestLedger({ RECONCILER_LAG_MS: '0' });
});
afterAll(async () => {
  await t?.stop();
});

it('totals pending, settled, completed and bounced amounts per card and funding source, and verify checks them', async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
  const authorize = async (amount: number) => (await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount, descriptor: 'Shop' } })).body.token;
  const simulate = (action: string, body: object) => t.call('POST', `/v1/simulate/${action}`, { body });
  await authorize(1000); // stays pending
  const partlyVoided = await authorize(800);
  await simulate('void', { token: partlyVoided, amount: 300 }); // 500 pending
  const cleared = await authorize(600);
  await simulate('clearing', { token: cleared, amount: 550 }); // settling 550
  const settled = await authorize(400);
  await simulate('clearing', { token: settled, amount: 400 });
  await simulate('settle', { token: settled }); // settled 400
  await simulate('return', { pan: card.pan, amount: 120, descriptor: 'Refund' }); // settling -120

  const expected = { pending: 1500, settled: 830, settlement_complete: 400, bounced: 0 };
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
    ledgerMismatches: expect.arrayContaining([expect.objectContaining({ by: 'card_token', token: card.token, fromEvents: expect.objectContaining({ pending: '1500' }), shown: expect.objectContaining({ pending: '1501' }) })]),
  });
});

it("answers 404 for another program's card or funding source", async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
  const other = await t.createProgram('other-ledger');
  expect((await t.call('GET', `/v1/cards/${card.token}/balance`, { apiKey: other.apiKey })).status).toBe(404);
  expect((await t.call('GET', `/v1/funding_sources/${card.funding.token}/balance`, { apiKey: other.apiKey })).status).toBe(404);
});
