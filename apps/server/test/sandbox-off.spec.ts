import { ledgerForTests } from './test-ledger';

/** Outside sandbox mode the simulation endpoints do not exist; the rest of the API works. */
const t = ledgerForTests({ SANDBOX: 'false' });

it.each(['authorize', 'void', 'clearing', 'return', 'authorization_advice', 'credit_authorization_advice', 'settle'])('answers 404 for /v1/simulate/%s, even without an api-key', async (action) => {
  for (const apiKey of [undefined, null]) {
    const answer = await t.call('POST', `/v1/simulate/${action}`, { body: { amount: 1 }, apiKey });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe(`Cannot POST /v1/simulate/${action}`);
  }
});

it.each([
  ['POST', '/v1/simulate/clock/advance', { frozen_time: '2099-01-01T00:00:00Z' }],
  ['GET', '/v1/simulate/clock', undefined],
])('has no test clock: %s %s answers 404, even without an api-key', async (method, path, body) => {
  for (const apiKey of [undefined, null]) {
    const answer = await t.call(method, path, { body, apiKey });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe(`Cannot ${method} ${path}`);
  }
});

it('still serves cards', async () => {
  expect((await t.call('POST', '/v1/cards', { body: { type: 'SINGLE_USE' } })).status).toBe(200);
});

it('serves expire_authorization, which is no simulation: an unknown transaction is 404 as such, not a missing route', async () => {
  const token = '0b5e1a64-54c6-4d6a-9d2e-6a3c1f0e2b7d';
  const answer = await t.call('POST', `/v1/transactions/${token}/expire_authorization`);
  expect(answer.status).toBe(404);
  expect(answer.body.message).toBe(`Transaction ${token} not found`);
});
