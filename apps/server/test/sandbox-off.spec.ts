import { startTestLedger, TestLedger } from './test-ledger';

/** Outside sandbox mode the simulation endpoints do not exist; the rest of the API works. */
let t: TestLedger;
beforeAll(async () => {
  t = await startTestLedger({ SANDBOX: 'false' });
});
afterAll(async () => {
  await t?.stop();
});

it.each(['authorize', 'void', 'clearing', 'return', 'authorization_advice', 'settle'])('answers 404 for /v1/simulate/%s, even without an api-key', async (action) => {
  for (const apiKey of [undefined, null]) {
    const answer = await t.call('POST', `/v1/simulate/${action}`, { body: { amount: 1 }, apiKey });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe(`Cannot POST /v1/simulate/${action}`);
  }
});

it('still serves cards', async () => {
  expect((await t.call('POST', '/v1/cards', { body: { type: 'SINGLE_USE' } })).status).toBe(200);
});
