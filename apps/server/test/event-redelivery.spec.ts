import 'reflect-metadata';
import { Webhook } from 'standardwebhooks';
import { webhookMessageId } from '@ledger/contracts';
import { eventually, LocalReceiver } from '@ledger/test-support';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * Lithic's redelivery calls on a subscription, against the whole service and a real receiver:
 * replay_missing, recover and (sandbox) send_example.
 */
let t: TestLedger;
/** /down/... answers 500; everything else 200. */
const receiver = new LocalReceiver((request) => ({ status: request.path.startsWith('/down/') ? 500 : 200, body: {} }));

beforeAll(async () => {
  await receiver.start();
  t = await startTestLedger({ WEBHOOK_RETRY_SCHEDULE: '0,100ms', WEBHOOK_POLL_MS: '50' });
});

afterAll(async () => {
  await t?.stop();
  await receiver.stop();
});

async function subscribe(apiKey: string, url: string, extra: Record<string, unknown> = {}): Promise<{ token: string; secret: string }> {
  const answer = await t.call('POST', '/v1/event_subscriptions', { apiKey, body: { url, ...extra } });
  expect(answer.status).toBe(200);
  return answer.body;
}

const messages = async (apiKey: string, subscription: string) => (await t.call('GET', `/v1/event_subscriptions/${subscription}/messages?page_size=100`, { apiKey })).body.data;

it("replay_missing sends the events in the range a subscription never got, once, with the feed's body and the live message id", async () => {
  const program = await t.createProgram('replay');
  const before = new Date().toISOString();
  const card = (await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'SINGLE_USE' } })).body;
  await t.call('PATCH', `/v1/cards/${card.token}`, { apiKey: program.apiKey, body: { state: 'PAUSED' } });
  const events = await eventually('both events in the feed', async () => {
    const data = (await t.call('GET', `/v1/events?begin=${encodeURIComponent(before)}`, { apiKey: program.apiKey })).body.data;
    return data.length === 2 && data;
  });
  // Created after the events: a subscription never receives history on its own.
  const subscription = await subscribe(program.apiKey, receiver.url('/ok/replay'), { event_types: ['card.updated'] });
  expect(await messages(program.apiKey, subscription.token)).toEqual([]);

  const replay = await t.call('POST', `/v1/event_subscriptions/${subscription.token}/replay_missing?begin=${encodeURIComponent(before)}`, { apiKey: program.apiKey });
  expect(replay).toMatchObject({ status: 200, body: {} });
  const [delivery] = await eventually('the replayed card.updated', async () => receiver.requestsTo('/ok/replay').length >= 1 && receiver.requestsTo('/ok/replay'));
  const updated = events.find((event: any) => event.event_type === 'card.updated');
  expect(delivery.headers['webhook-id']).toBe(webhookMessageId(updated.token, subscription.token));
  expect(delivery.body).toEqual(updated.payload);
  expect(() => new Webhook(subscription.secret).verify(delivery.raw, delivery.headers as Record<string, string>)).not.toThrow();

  // Again: nothing new (the card.created is not a type it wants; the card.updated has its message).
  await t.call('POST', `/v1/event_subscriptions/${subscription.token}/replay_missing?begin=${encodeURIComponent(before)}`, { apiKey: program.apiKey });
  expect(await messages(program.apiKey, subscription.token)).toHaveLength(1);
  // A range that ends before the events replays nothing.
  const other = await subscribe(program.apiKey, receiver.url('/ok/none'));
  await t.call('POST', `/v1/event_subscriptions/${other.token}/replay_missing?end=${encodeURIComponent(before)}`, { apiKey: program.apiKey });
  expect(await messages(program.apiKey, other.token)).toEqual([]);
});

it('recover delivers again the failed messages created in the range', async () => {
  const program = await t.createProgram('recover');
  const subscription = await subscribe(program.apiKey, receiver.url('/down/recover'));
  await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'SINGLE_USE' } });
  const [failed] = await eventually('the message failed', async () => {
    const data = await messages(program.apiKey, subscription.token);
    return data.length === 1 && data[0].status === 'failed' && data;
  });
  expect(failed.attempts).toBe(2);
  // The receiver is fixed; a recover of a range that ends before the message leaves it failed.
  await t.call('PATCH', `/v1/event_subscriptions/${subscription.token}`, { apiKey: program.apiKey, body: { url: receiver.url('/ok/recover') } });
  await t.call('POST', `/v1/event_subscriptions/${subscription.token}/recover?end=2000-01-01`, { apiKey: program.apiKey });
  expect((await messages(program.apiKey, subscription.token))[0].status).toBe('failed');
  expect((await t.call('POST', `/v1/event_subscriptions/${subscription.token}/recover`, { apiKey: program.apiKey })).status).toBe(200);
  const delivery = await eventually('the recovered delivery', async () => receiver.requestsTo('/ok/recover')[0]);
  expect(delivery.headers['webhook-id']).toBe(failed.token);
  await eventually('delivered', async () => (await messages(program.apiKey, subscription.token))[0].status === 'delivered');
});

it("send_example sends a copy of the program's latest event of the type, and needs one to copy", async () => {
  const program = await t.createProgram('example');
  const subscription = await subscribe(program.apiKey, receiver.url('/ok/example'));
  const send = (body: unknown, apiKey = program.apiKey, token = subscription.token) => t.call('POST', `/v1/simulate/event_subscriptions/${token}/send_example`, { apiKey, body });
  const none = await send({ event_type: 'card_transaction.updated' });
  expect(none.status).toBe(404);
  expect(none.body.message).toContain('card_transaction.updated');
  expect((await send({ event_type: 'card.deleted' })).status).toBe(400);

  const card = (await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'SINGLE_USE' } })).body;
  await eventually('the live card.created', async () => receiver.requestsTo('/ok/example').length === 1);
  expect((await send({})).status).toBe(200);
  const examples = await eventually('the example', async () => receiver.requestsTo('/ok/example').length === 2 && receiver.requestsTo('/ok/example'));
  expect(examples[1].body).toMatchObject({ event_type: 'card.created', card_token: card.token });
  expect(examples[1].headers['webhook-id']).not.toBe(examples[0].headers['webhook-id']);
  // Another program's subscription is unknown here.
  expect((await send({}, t.apiKey)).status).toBe(404);
});
