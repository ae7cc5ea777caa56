import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { AuthorizationStreamClient, AuthorizeCardSpendHandler, ProgramSpend } from '@ledger/card-service';
import { CardVault } from '@ledger/card-vault';
import { AuthorizeCardSpendCommand, CardSpendDecision, CommandOrigin } from '@ledger/contracts';
import { EventStore, NewEvent, NO_FAULTS, PipelineEnvironment, StreamAppend, StreamFoldCache, StreamQueue } from '@ledger/event-store';
import { EVENT_STORE, PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { ledgerForTests } from './test-ledger';

/**
 * Design invariant 1: concurrent authorizations on one card never approve more than its limit.
 * Within a process they queue on the card (StreamQueue); across processes the card stream's expected
 * version serializes them. The last test shows the two-process scenario overspends when appends stop
 * checking it, so the one before it could fail.
 */
const t = ledgerForTests();

async function burst(duration: string): Promise<{ approved: number; declined: string[]; card: Record<string, any> }> {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: duration } })).body;
  const answers = await Promise.all(
    Array.from({ length: 40 }, () => t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 100, descriptor: 'Burst' } })),
  );
  expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 422).map((answer) => [answer.status, answer.body])).toEqual([]);
  return {
    approved: answers.filter((answer) => answer.status === 200).length,
    declined: answers.filter((answer) => answer.status === 422).map((answer) => answer.body.message),
    card,
  };
}

it.each(['FOREVER', 'MONTHLY', 'DAILY'])('40 parallel authorizations of 100 on a 1000 %s limit approve exactly 10', async (duration) => {
  const { approved, declined, card } = await burst(duration);
  expect(approved).toBe(10);
  expect(declined).toHaveLength(30);
  expect(new Set(declined.map((message) => /\((\w+)\)/.exec(message)?.[1]))).toEqual(new Set(['USER_TRANSACTION_LIMIT']));
  const listed = await t.call('GET', `/v1/transactions?card_token=${card.token}&page_size=1000`);
  expect(listed.body.total_entries).toBe(40);
  const approvedAmounts = listed.body.data.filter((tx: any) => tx.result === 'APPROVED').map((tx: any) => tx.amount);
  expect(approvedAmounts.reduce((sum: number, amount: number) => sum + amount, 0)).toBe(1000);
});

it.each(['FOREVER', 'MONTHLY', 'DAILY'])('a return of 100000 before 64 parallel authorizations of 100 on a 1000 %s limit leaves room for exactly 10', async (duration) => {
  // A program of its own: 64 requests at once fit its rate limit (100 a second) only when alone.
  const { apiKey } = await t.createProgram(`return-burst-${duration}`);
  const card = (await t.call('POST', '/v1/cards', { apiKey, body: { type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: duration } })).body;
  expect((await t.call('POST', '/v1/simulate/return', { apiKey, body: { pan: card.pan, amount: 100_000, descriptor: 'Refund' } })).status).toBe(200);
  const answers = await Promise.all(
    Array.from({ length: 64 }, () => t.call('POST', '/v1/simulate/authorize', { apiKey, body: { pan: card.pan, amount: 100, descriptor: 'Burst' } })),
  );
  expect(answers.filter((answer) => answer.status !== 200 && answer.status !== 422).map((answer) => [answer.status, answer.body])).toEqual([]);
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
  const listed = await t.call('GET', `/v1/transactions?card_token=${card.token}&result=APPROVED&page_size=1000`, { apiKey });
  const approvedSpend = listed.body.data.filter((tx: any) => tx.amount > 0).reduce((sum: number, tx: any) => sum + tx.amount, 0);
  expect(approvedSpend).toBe(1000);
});

/** A spend of 100 on the card, decided by the given handler (the card-service of one process). */
function spend(handler: { execute(command: AuthorizeCardSpendCommand): Promise<CardSpendDecision> }, origin: CommandOrigin, cardToken: string) {
  return handler.execute(
    new AuthorizeCardSpendCommand(origin, cardToken, {
      transactionToken: randomUUID(),
      eventToken: randomUUID(),
      authorizationCode: '000000',
      amount: 100,
      merchant: { acceptorId: '', city: '', country: 'USA', descriptor: 'Two processes', mcc: '5999', state: '' },
      merchantAmount: 100,
      merchantCurrency: 'USD',
      presented: {},
    }),
  );
}

/**
 * A second card-service process on the same store: its own fold cache and its own queue, so only
 * the expected version stands between its decisions and this process's.
 */
function secondProcess(): AuthorizeCardSpendHandler {
  const env = t.ledger.app.get<PipelineEnvironment>(PIPELINE_ENVIRONMENT);
  const elsewhere: PipelineEnvironment = { store: env.store, codec: env.codec, now: env.now, newId: env.newId, folds: new StreamFoldCache(), queue: new StreamQueue() };
  return new AuthorizeCardSpendHandler(elsewhere, t.ledger.app.get(CardVault), t.ledger.app.get(ProgramSpend, { strict: false }), t.ledger.app.get(AuthorizationStreamClient), NO_FAULTS);
}

async function programOrigin(): Promise<CommandOrigin> {
  return { programToken: (await t.call('GET', '/v1/accounts')).body.data[0].token, correlationId: randomUUID(), causationId: null };
}

it('two processes deciding on one card at once still approve exactly up to its limit', async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'FOREVER' } })).body;
  const here = t.ledger.app.get(CommandBus);
  const there = secondProcess();
  const origin = await programOrigin();
  const decisions = await Promise.all(
    Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? spend({ execute: (command) => here.execute(command) }, origin, card.token) : spend(there, origin, card.token))),
  );
  expect(decisions.filter((decision) => decision.result === 'APPROVED')).toHaveLength(10);
});

it('overspends when two processes write without the expected version (the check the tests above rely on)', async () => {
  const store = t.ledger.app.get<EventStore>(EVENT_STORE);
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 1000, spend_limit_duration: 'FOREVER' } })).body;
  const append = store.append.bind(store);
  const appendAtomically = (store.appendAtomically as NonNullable<EventStore['appendAtomically']>).bind(store);
  const careless = [
    jest.spyOn(store, 'append').mockImplementation((streamId: string, events: readonly NewEvent[]) => append(streamId, events, 'any')),
    jest
      .spyOn(store as Required<EventStore>, 'appendAtomically')
      .mockImplementation((appends: readonly StreamAppend[]) => appendAtomically(appends.map((one) => ({ ...one, expected: 'any' as const })))),
  ];
  try {
    const origin = await programOrigin();
    // Five processes' worth: each queues its own decisions, none sees the others'.
    const processes = Array.from({ length: 5 }, secondProcess);
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => spend(processes[i % processes.length], origin, card.token)));
    expect(decisions.filter((decision) => decision.result === 'APPROVED').length).toBeGreaterThan(10);
  } finally {
    for (const spy of careless) spy.mockRestore();
  }
});
