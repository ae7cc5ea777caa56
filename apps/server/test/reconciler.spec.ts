import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { AuthorizeCardSpendCommand, CardSpendDecision } from '@ledger/contracts';
import { transactionDecider, transactionStreamId } from '@ledger/domain';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { eventually } from '@ledger/test-support';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * A crash between the two writes of a simulated event leaves one stream written and the other not.
 * Here the first half is written on purpose and the handler "dies"; the reconciler must complete it.
 */
let t: TestLedger;
let programToken: string;
beforeAll(async () => {
  t = await startTestLedger({ RECONCILER_LAG_MS: '0' });
  programToken = (await t.call('GET', '/v1/accounts')).body.data[0].token;
});
afterAll(async () => {
  await t?.stop();
});

const origin = () => ({ programToken, correlationId: randomUUID(), causationId: null });

it('records the transaction of a card decision whose transaction was never written', async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
  const transactionToken = randomUUID();
  const decision = await t.ledger.app.get(CommandBus).execute<AuthorizeCardSpendCommand, CardSpendDecision>(
    new AuthorizeCardSpendCommand(origin(), card.token, {
      transactionToken,
      eventToken: randomUUID(),
      authorizationCode: '123456',
      amount: 4200,
      merchant: { acceptorId: '', city: '', country: 'USA', descriptor: 'Half Written', mcc: '5999', state: '' },
      merchantAmount: 4200,
      merchantCurrency: 'USD',
      presented: {},
    }),
  );
  expect(decision.result).toBe('APPROVED');
  const tx = await eventually('the reconciled transaction', async () => {
    const answer = await t.call('GET', `/v1/transactions/${transactionToken}`);
    return answer.status === 200 ? answer.body : undefined;
  }, 10_000);
  expect(tx).toMatchObject({ status: 'PENDING', amount: 4200, authorization_code: '123456', merchant: { descriptor: 'Half Written' } });
});

it("gives the card back the spend of a void whose card adjustment was never written", async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'FOREVER' } })).body;
  const authorize = () => t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 1000, descriptor: 'Store' } });
  const first = await authorize();
  expect(first.status).toBe(200);
  expect((await authorize()).status).toBe(422);

  const env = t.ledger.app.get<PipelineEnvironment>(PIPELINE_ENVIRONMENT);
  await commandHandler(env, transactionDecider, transactionStreamId(first.body.token)).handle({
    type: 'VoidAuthorization',
    transactionToken: first.body.token,
    programToken,
    eventToken: randomUUID(),
    amount: 1000,
  }, origin());

  await eventually('the card spend adjustment', async () => {
    const events = await t.pool.query(`select count(*)::int as n from events where stream_id = $1 and event_type = 'CardSpendAdjusted'`, [`card-${card.token}`]);
    return events.rows[0].n === 1;
  }, 10_000);
  expect((await authorize()).status).toBe(200);
});
