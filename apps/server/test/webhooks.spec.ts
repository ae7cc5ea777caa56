import 'reflect-metadata';
import { createHmac, randomUUID } from 'node:crypto';
import { Kafka, logLevel, Message, Partitioners, Producer } from 'kafkajs';
import { Webhook } from 'standardwebhooks';
import type { EventStore, Subscription } from '@ledger/event-store';
import { ReadModelProjector, replayReadModels } from '@ledger/projector';
import { EVENT_STORE, READ_MODEL } from '@ledger/runtime';
import { deadUrl, describeNeeding, eventually, LocalReceiver, ReceivedRequest } from '@ledger/test-support';
import { WEBHOOK_FEEDER, WebhookKafkaFeeder } from '@ledger/webhooks';
import { ledgerForTests, startTestLedger, TestLedger } from './test-ledger';
import { IntegrationEnvelopes, topicFor } from '@ledger/messaging';

/**
 * Webhooks end to end: the whole service over HTTP, real local receivers, signatures checked with the
 * standardwebhooks library and an independent X-Privacy-HMAC check. The delivery scenarios run twice:
 * fed from the PostgreSQL outbox (no KAFKA_BROKERS) and fed from Kafka (a real broker, when
 * KAFKA_BROKERS is set). In Kafka mode this test publishes the integration envelopes itself, with
 * `IntegrationEnvelopes` and `topicFor` exactly as the projector's publisher does, so it does not depend
 * on that publisher being wired in; when it is, its copies are de-duplicated by the unique key.
 */

/** Four attempts: at once, 200 ms, 200 ms, then 1.5 s, so "pending" can be watched before "failed". */
const FAST_WEBHOOKS = { WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms,1500ms', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' };
const KAFKA_BROKERS = process.env.KAFKA_BROKERS;

// ---------------------------------------------------------------- a real local receiver

/** /ok/... answers 200; /flaky/... answers 500 to the first three tries of each message (by webhook-id), then 200. */
function flakyReceiver(): LocalReceiver {
  const triesPerMessage = new Map<string, number>();
  return new LocalReceiver((request) => {
    if (!request.path.startsWith('/flaky/')) return { status: 200, body: {} };
    const messageId = String(request.headers['webhook-id']);
    const tries = (triesPerMessage.get(messageId) ?? 0) + 1;
    triesPerMessage.set(messageId, tries);
    return { status: tries <= 3 ? 500 : 200, body: {} };
  });
}

// ---------------------------------------------------------------- independent signature checks

/** Privacy's documented check, written here from its description and not from our code. */
function privacyHmacOf(secret: string, body: unknown): string {
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted((value as Record<string, unknown>)[key])]))
        : value;
  const canonical = JSON.stringify(sorted(body)).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return createHmac('sha256', secret).update(canonical).digest('base64');
}

function verifiedByStandardWebhooks(secret: string, delivery: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(delivery.raw, delivery.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

const withoutSecrets = ({ pan: _pan, cvv: _cvv, ...card }: Record<string, unknown>) => card;

// ---------------------------------------------------------------- Kafka: the envelopes, published as the projector does

async function publishEnvelopes(store: EventStore, brokers: string[]): Promise<{ stop(): Promise<void> }> {
  const kafka = new Kafka({ clientId: 'webhooks-spec-publisher', brokers, logLevel: logLevel.NOTHING });
  const producer: Producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const envelopes = new IntegrationEnvelopes(store);
  const subscription: Subscription = store.subscribeToAll({
    after: null,
    handle: async (events) => {
      const perTopic = new Map<string, Message[]>();
      for (const recorded of events) {
        const topic = topicFor(recorded);
        if (!topic) continue;
        const envelope = await envelopes.envelopeOf(recorded);
        perTopic.set(topic, [...(perTopic.get(topic) ?? []), { key: envelope.card_token ?? envelope.program_token, value: JSON.stringify(envelope) }]);
      }
      if (perTopic.size > 0) await producer.sendBatch({ acks: -1, topicMessages: [...perTopic].map(([topic, messages]) => ({ topic, messages })) });
    },
  });
  return {
    async stop() {
      await subscription.stop();
      await producer.disconnect();
    },
  };
}

// ---------------------------------------------------------------- the scenarios, in both modes

function deliveryScenarios(mode: 'outbox' | 'kafka', env: () => Record<string, string>) {
  let t: TestLedger;
  let publisher: { stop(): Promise<void> } | null = null;
  const receiver = flakyReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestLedger({ ...FAST_WEBHOOKS, ...env() });
    if (mode === 'kafka') publisher = await publishEnvelopes(t.ledger.app.get<EventStore>(EVENT_STORE), KAFKA_BROKERS!.split(','));
  }, 60_000);

  afterAll(async () => {
    await publisher?.stop();
    await t?.stop();
    await receiver.stop();
  });

  const subscribe = async (apiKey: string, url: string, extra: Record<string, unknown> = {}) => {
    const answer = await t.call('POST', '/v1/event_subscriptions', { apiKey, body: { url, ...extra } });
    expect(answer.status).toBe(200);
    return answer.body as { token: string; secret: string };
  };
  const messagesOf = async (apiKey: string, subscription: string, query = '') =>
    (await t.call('GET', `/v1/event_subscriptions/${subscription}/messages${query}`, { apiKey })).body;
  const messageOf = async (apiKey: string, subscription: string, message: string) =>
    (await t.call('GET', `/v1/event_subscriptions/${subscription}/messages/${message}`, { apiKey })).body;
  /**
   * Waits until the subscription has at least `count` messages and every one of them is delivered:
   * the service's own record of what it will ever send, so "nothing more arrives" needs no sleep.
   */
  const allDelivered = (apiKey: string, subscription: string, count: number) =>
    eventually(`${count} messages delivered`, async () => {
      const page = await messagesOf(apiKey, subscription, '?page_size=100');
      return page.total_entries >= count && page.data.every((message: { status: string }) => message.status === 'delivered') && page;
    });

  it("delivers a card's life signed per Standard Webhooks, transactions with X-Privacy-HMAC, never a PAN or CVV", async () => {
    const program = await t.createProgram(`life-${mode}`);
    const path = `/ok/life-${mode}`;
    const subscription = await subscribe(program.apiKey, receiver.url(path), { description: 'everything' });
    const call = (method: string, url: string, body?: unknown) => t.call(method, url, { apiKey: program.apiKey, body });

    const card = (await call('POST', '/v1/cards', { type: 'MERCHANT_LOCKED', memo: 'café ☕ ünïcode' })).body;
    await call('PATCH', `/v1/cards/${card.token}`, { memo: 'groceries' });
    await call('PATCH', `/v1/cards/${card.token}`, { state: 'PAUSED' });
    await call('PATCH', `/v1/cards/${card.token}`, { state: 'OPEN' });
    const authorized = await call('POST', '/v1/simulate/authorize', { pan: card.pan, amount: 1234, descriptor: 'Corner Shop' });
    expect(authorized.status).toBe(200);
    await call('POST', '/v1/simulate/clearing', { token: authorized.body.token, amount: 1234 });

    // created; memo, pause, resume and the merchant lock of the first approval; authorization and clearing
    const expected = { 'card.created': 1, 'card.updated': 4, 'card_transaction.updated': 2 };
    // The clearing is the card's last event: once its message is delivered, every earlier event was fed.
    expect((await allDelivered(program.apiKey, subscription.token, 7)).total_entries).toBe(7);
    const deliveries = await eventually('seven webhooks', async () => receiver.requestsTo(path).length >= 7 && receiver.requestsTo(path));
    expect(receiver.requestsTo(path)).toHaveLength(7);
    const count = (type: string) => deliveries.filter((delivery) => delivery.body.event_type === type).length;
    expect({ 'card.created': count('card.created'), 'card.updated': count('card.updated'), 'card_transaction.updated': count('card_transaction.updated') }).toEqual(expected);

    for (const delivery of deliveries) {
      expect(verifiedByStandardWebhooks(subscription.secret, delivery)).toBe(true);
      expect(delivery.headers['webhook-id']).toEqual(expect.any(String));
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.raw).not.toContain(card.pan);
      // No PAN or CVV value under any key (Lithic's pos.entry_mode.pan names how a PAN was entered, a word).
      expect(delivery.raw).not.toMatch(/"(pan|cvv)":\s*"\d/);
      if (delivery.body.event_type === 'card_transaction.updated') {
        expect(delivery.headers['x-privacy-hmac']).toBe(privacyHmacOf(subscription.secret, delivery.body));
        // Lithic's card_transaction.updated: the transaction object is the body.
        expect(delivery.body.token).toBe(authorized.body.token);
      } else {
        expect(delivery.headers['x-privacy-hmac']).toBeUndefined();
        // Lithic's card.created and card.updated: card_token at the top, beside the card object.
        expect(delivery.body.card_token).toBe(card.token);
        expect(delivery.body.token).toBe(card.token);
      }
    }
    // A body signed with another secret, or changed, does not verify.
    expect(verifiedByStandardWebhooks(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, deliveries[0])).toBe(false);
    // Deliveries arrive in any order across Kafka partitions, so the tampering must change every body.
    const tampered = deliveries[0].raw.replace(/}\s*$/, ',"tampered":true}');
    expect(tampered).not.toBe(deliveries[0].raw);
    expect(verifiedByStandardWebhooks(subscription.secret, { ...deliveries[0], raw: tampered })).toBe(false);

    // Each card.updated says what its own event changed, with the value before it, and the state after it,
    // however far the read models had moved on when its body was built.
    const updates = deliveries.filter((delivery) => delivery.body.event_type === 'card.updated').map(({ body }) => ({ previous_fields: body.previous_fields, state: body.state }));
    expect(updates).toEqual(
      expect.arrayContaining([
        { previous_fields: { memo: 'café ☕ ünïcode' }, state: 'OPEN' },
        { previous_fields: { state: 'OPEN' }, state: 'PAUSED' },
        { previous_fields: { state: 'PAUSED' }, state: 'OPEN' },
        { previous_fields: { hostname: '' }, state: 'OPEN' },
      ]),
    );
    // The bodies carry the API's objects less PAN and CVV (the lock's card.updated and the clearing's
    // transaction body were built after the last change of each).
    const lock = deliveries.find((delivery) => delivery.body.event_type === 'card.updated' && 'hostname' in delivery.body.previous_fields)!;
    const cardNow = (await call('GET', `/v1/cards/${card.token}`)).body;
    const { event_type: _cardType, card_token: _cardToken, previous_fields: _previous, ...lockCard } = lock.body;
    expect(lockCard).toEqual(withoutSecrets(cardNow));
    expect(cardNow.hostname).toBe('Corner Shop');
    const transactionNow = (await call('GET', `/v1/transactions/${authorized.body.token}`)).body;
    const cleared = deliveries.find((delivery) => delivery.body.event_type === 'card_transaction.updated' && delivery.body.status === 'SETTLING')!;
    const { event_type: _transactionType, ...clearedTransaction } = cleared.body;
    expect(clearedTransaction).toEqual({ ...transactionNow, card: withoutSecrets(transactionNow.card) });
    expect(transactionNow.status).toBe('SETTLING');

    // The delivery log agrees, newest first, every message delivered on its first attempt.
    const messages = await messagesOf(program.apiKey, subscription.token);
    expect(messages).toMatchObject({ page: 1, total_entries: 7, total_pages: 1 });
    expect(messages.data.map((message: any) => message.token).sort()).toEqual(deliveries.map((delivery) => delivery.headers['webhook-id']).sort());
    for (const message of messages.data) {
      expect(message).toMatchObject({ status: 'delivered', attempts: 1, last_response_status: 200, next_attempt_at: null, event_subscription_token: subscription.token });
    }
    const created = messages.data.map((message: any) => message.created);
    expect([...created].sort().reverse()).toEqual(created);

    // Resending a delivered message delivers it again, with the same id.
    const first = deliveries.find((delivery) => delivery.body.event_type === 'card.created')!;
    const firstId = String(first.headers['webhook-id']);
    const resent = await t.call('POST', `/v1/event_subscriptions/${subscription.token}/messages/${firstId}/resend`, { apiKey: program.apiKey });
    expect(resent.status).toBe(200);
    const again = await eventually('the resent message', async () => receiver.requestsTo(path).find((delivery, i) => i >= 7 && delivery.headers['webhook-id'] === firstId));
    expect(again.raw).toBe(first.raw);
    expect(verifiedByStandardWebhooks(subscription.secret, again)).toBe(true);
    await eventually('two attempts', async () => (await messageOf(program.apiKey, subscription.token, firstId)).attempts === 2);

    // Which feed filled the table: the projector's batches without Kafka, the Kafka feed with it.
    const feeder = t.ledger.app.get<WebhookKafkaFeeder | null>(WEBHOOK_FEEDER);
    expect(feeder === null).toBe(mode === 'outbox');

    // Feeding every event again (a crash before the checkpoint or offset moved) adds nothing: stable ids, one row each.
    const store = t.ledger.app.get<EventStore>(EVENT_STORE);
    const everything = await store.readAll({ after: null, maxCount: 100_000 });
    if (feeder === null) {
      // A second projector from the start of the log (its own checkpoint) fills the outbox again; its read-model writes repeat what is there.
      const again = new ReadModelProjector(store, t.ledger.app.get(READ_MODEL), { name: 'webhooks-spec-refeed', pool: t.pool, eventsFeed: false, webhookOutbox: { retrySchedule: [0] } });
      await again.project(everything);
    } else {
      await feeder.feed(await new IntegrationEnvelopes(store).envelopesOf(everything));
    }
    expect((await messagesOf(program.apiKey, subscription.token)).total_entries).toBe(7);
    const rows = await t.pool.query(`select count(*)::int as n from webhook_messages where subscription_token = $1`, [subscription.token]);
    expect(rows.rows[0].n).toBe(7);
  });

  it('a receiver that answers 500 three times gets the message on the fourth try', async () => {
    const program = await t.createProgram(`flaky-${mode}`);
    const path = `/flaky/${mode}`;
    const subscription = await subscribe(program.apiKey, receiver.url(path), { event_types: ['card.created'] });
    await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'SINGLE_USE' } });

    const [message] = await eventually('a delivered message', async () => {
      const { data } = await messagesOf(program.apiKey, subscription.token);
      return data.length === 1 && data[0].status === 'delivered' && data;
    });
    expect(message).toMatchObject({ event_type: 'card.created', attempts: 4, last_response_status: 200 });
    const tries = receiver.requestsTo(path);
    expect(tries).toHaveLength(4);
    expect(new Set(tries.map((delivery) => delivery.headers['webhook-id']))).toEqual(new Set([message.token]));
    expect(tries.every((delivery) => verifiedByStandardWebhooks(subscription.secret, delivery))).toBe(true);

    const log = (await t.call('GET', `/v1/event_subscriptions/${subscription.token}/messages/${message.token}/attempts`, { apiKey: program.apiKey })).body;
    expect(log.total_entries).toBe(4);
    expect(log.data.map((attempt: any) => [attempt.attempt, attempt.response_status])).toEqual([
      [4, 200],
      [3, 500],
      [2, 500],
      [1, 500],
    ]);
    expect(log.data.map((attempt: any) => attempt.error)).toEqual([null, 'http_status', 'http_status', 'http_status']);
    expect(log.data.every((attempt: any) => attempt.url === receiver.url(path) && attempt.duration_ms >= 0)).toBe(true);
    expect((await t.call('GET', `/v1/event_subscriptions/${subscription.token}`, { apiKey: program.apiKey })).body.failing).toBe(false);
  });

  it('a receiver that is down leaves the message pending, failed only once the schedule is exhausted; then it recovers', async () => {
    const program = await t.createProgram(`down-${mode}`);
    const subscription = await subscribe(program.apiKey, await deadUrl(), { event_types: ['card.created'] });
    await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'SINGLE_USE' } });

    // Three attempts refused; the fourth is 1.5 s away: pending, not lost.
    const pending = await eventually('three refused attempts', async () => {
      const { data } = await messagesOf(program.apiKey, subscription.token);
      return data[0]?.attempts === 3 && data[0];
    });
    expect(pending).toMatchObject({ status: 'pending', last_response_status: null, delivered_at: null });
    expect(new Date(pending.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    const attempts = (await t.call('GET', `/v1/event_subscriptions/${subscription.token}/attempts`, { apiKey: program.apiKey })).body;
    expect(attempts.data).toHaveLength(3);
    // The class only: the errno, address and port are the server log's (see egress.spec.ts).
    expect(attempts.data.every((attempt: any) => attempt.response_status === null && attempt.error === 'connection_failed')).toBe(true);
    expect((await t.call('GET', `/v1/event_subscriptions/${subscription.token}`, { apiKey: program.apiKey })).body.failing).toBe(false);

    // After the fourth and last attempt: failed, and the subscription is failing.
    const failed = await eventually('the failed message', async () => {
      const message = await messageOf(program.apiKey, subscription.token, pending.token);
      return message.status === 'failed' && message;
    });
    expect(failed).toMatchObject({ attempts: 4, next_attempt_at: null });
    await eventually('a failing subscription', async () => (await t.call('GET', `/v1/event_subscriptions/${subscription.token}`, { apiKey: program.apiKey })).body.failing);
    expect((await messagesOf(program.apiKey, subscription.token, '?status=failed')).total_entries).toBe(1);

    // The receiver comes back at a new url: a resend delivers the same message and the subscription recovers.
    const path = `/ok/back-${mode}`;
    expect((await t.call('PATCH', `/v1/event_subscriptions/${subscription.token}`, { apiKey: program.apiKey, body: { url: receiver.url(path) } })).status).toBe(200);
    const resent = await t.call('POST', `/v1/event_subscriptions/${subscription.token}/messages/${pending.token}/resend`, { apiKey: program.apiKey });
    expect(resent.status).toBe(200);
    expect(resent.body.status).toMatch(/pending|delivered/);
    const delivered = await eventually('the resent delivery', async () => receiver.requestsTo(path)[0]);
    expect(delivered.headers['webhook-id']).toBe(pending.token);
    expect(verifiedByStandardWebhooks(subscription.secret, delivered)).toBe(true);
    await eventually('a recovered subscription', async () => {
      const answer = (await t.call('GET', `/v1/event_subscriptions/${subscription.token}`, { apiKey: program.apiKey })).body;
      return answer.failing === false;
    });
    expect(await messageOf(program.apiKey, subscription.token, pending.token)).toMatchObject({ status: 'delivered', attempts: 5, last_response_status: 200 });

    // Failing and recovered went through the subscription's aggregate: they are events of its stream.
    const stream = await t.ledger.app.get<EventStore>(EVENT_STORE).readStream(`event-subscription-${subscription.token}`);
    expect(stream.map((event) => event.type)).toEqual(['EventSubscriptionCreated', 'EventSubscriptionMarkedFailing', 'EventSubscriptionUpdated', 'EventSubscriptionRecovered']);
    expect(stream[1].data).toMatchObject({ messageId: pending.token });

    // The subscriptions read model is rebuilt exactly from the events (design invariant 4).
    const replay = await replayReadModels(t.ledger.app.get<EventStore>(EVENT_STORE), t.pool);
    expect(replay.differences).toEqual([]);
    expect((await t.pool.query('select count(*)::int as n from event_subscriptions')).rows[0].n).toBeGreaterThan(0);
  });

  it('delivers only the types subscribed, nothing to a disabled subscription, nothing across programs', async () => {
    const a = await t.createProgram(`types-a-${mode}`);
    const b = await t.createProgram(`types-b-${mode}`);
    const updates = await subscribe(a.apiKey, receiver.url(`/ok/updates-${mode}`), { event_types: ['card.updated'] });
    const disabled = await subscribe(a.apiKey, receiver.url(`/ok/disabled-${mode}`), { disabled: true });
    const other = await subscribe(b.apiKey, receiver.url(`/ok/other-${mode}`));

    const card = (await t.call('POST', '/v1/cards', { apiKey: a.apiKey, body: { type: 'DIGITAL_WALLET' } })).body;
    await t.call('PATCH', `/v1/cards/${card.token}`, { apiKey: a.apiKey, body: { state: 'PAUSED' } });
    // A last update of the same card marks the end: the feeder takes a card's events in order and
    // enqueues each for every subscription at once, so when the marker's message exists, everything
    // before it has been matched against every subscription.
    await t.call('PATCH', `/v1/cards/${card.token}`, { apiKey: a.apiKey, body: { memo: 'marker' } });

    expect((await allDelivered(a.apiKey, updates.token, 2)).total_entries).toBe(2);
    const delivered = await eventually('both card.updated webhooks', async () => receiver.requestsTo(`/ok/updates-${mode}`).length >= 2 && receiver.requestsTo(`/ok/updates-${mode}`));
    // The card object is as the read model holds it when the message is built; previous_fields and state are each event's own.
    for (const update of delivered) expect(update.body).toMatchObject({ event_type: 'card.updated', card_token: card.token, token: card.token, state: 'PAUSED' });
    expect(delivered.map((update) => update.body.previous_fields)).toEqual(expect.arrayContaining([{ state: 'OPEN' }, { memo: '' }]));
    expect(receiver.requestsTo(`/ok/updates-${mode}`)).toHaveLength(2);
    expect((await messagesOf(a.apiKey, disabled.token)).total_entries).toBe(0);
    expect((await messagesOf(b.apiKey, other.token)).total_entries).toBe(0);
    expect(receiver.requestsTo(`/ok/disabled-${mode}`)).toHaveLength(0);
    expect(receiver.requestsTo(`/ok/other-${mode}`)).toHaveLength(0);
  });
}

describe('webhooks fed from the PostgreSQL outbox (no KAFKA_BROKERS)', () => {
  deliveryScenarios('outbox', () => ({}));
});

const kafkaDescribe = describeNeeding(KAFKA_BROKERS ? null : 'KAFKA_BROKERS is not set; run infra/kafka/start.sh and set KAFKA_BROKERS=127.0.0.1:9092');
kafkaDescribe('webhooks fed from Kafka', () => {
  deliveryScenarios('kafka', () => ({ KAFKA_BROKERS: KAFKA_BROKERS!, WEBHOOK_KAFKA_GROUP_ID: `webhook-dispatcher-test-${randomUUID()}` }));
});

// ---------------------------------------------------------------- the subscription API

describe('event subscriptions API', () => {
  const t = ledgerForTests(FAST_WEBHOOKS);

  it('creates, reads, lists, updates, rotates the secret of and deletes a subscription', async () => {
    const program = await t.createProgram('crud');
    const call = (method: string, url: string, body?: unknown) => t.call(method, url, { apiKey: program.apiKey, body });

    const created = await call('POST', '/v1/event_subscriptions', { url: 'https://hooks.example.com/ledger', description: 'ops', event_types: ['card.created', 'card_transaction.updated'] });
    expect(created.status).toBe(200);
    const { token, secret } = created.body;
    expect(created.body).toEqual({
      token: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://hooks.example.com/ledger',
      description: 'ops',
      event_types: ['card.created', 'card_transaction.updated'],
      disabled: false,
      failing: false,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { secret: _secret, ...shown } = created.body;
    expect((await call('GET', `/v1/event_subscriptions/${token}`)).body).toEqual(shown);
    expect((await call('GET', '/v1/event_subscriptions')).body).toEqual({ data: [shown], has_more: false, page: 1, total_entries: 1, total_pages: 1 });
    expect((await call('GET', `/v1/event_subscriptions/${token}/secret`)).body).toEqual({ secret });

    const defaults = await call('POST', '/v1/event_subscriptions', { url: 'http://localhost:9000/hooks' });
    expect(defaults.body).toMatchObject({ url: 'http://localhost:9000/hooks', description: '', event_types: [], disabled: false });
    expect((await call('GET', '/v1/event_subscriptions?page_size=1&page=2')).body).toMatchObject({ data: [{ token: defaults.body.token }], total_entries: 2, total_pages: 2 });

    const updated = await call('PATCH', `/v1/event_subscriptions/${token}`, { description: 'paused for now', event_types: [], disabled: true });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ ...shown, description: 'paused for now', event_types: [], disabled: true });

    const rotated = await call('POST', `/v1/event_subscriptions/${token}/secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    expect((await call('GET', `/v1/event_subscriptions/${token}/secret`)).body).toEqual({ secret: rotated.body.secret });

    expect((await call('GET', `/v1/event_subscriptions/${token}/messages`)).body).toEqual({ data: [], has_more: false, page: 1, total_entries: 0, total_pages: 0 });
    expect((await call('GET', `/v1/event_subscriptions/${token}/attempts`)).body).toEqual({ data: [], has_more: false, page: 1, total_entries: 0, total_pages: 0 });

    expect(await call('DELETE', `/v1/event_subscriptions/${token}`)).toMatchObject({ status: 200, body: {} });
    for (const [method, url] of [
      ['GET', `/v1/event_subscriptions/${token}`],
      ['GET', `/v1/event_subscriptions/${token}/secret`],
      ['PATCH', `/v1/event_subscriptions/${token}`],
      ['DELETE', `/v1/event_subscriptions/${token}`],
    ]) {
      expect((await call(method, url, method === 'PATCH' ? { disabled: false } : undefined)).status).toBe(404);
    }
    expect((await call('GET', '/v1/event_subscriptions')).body.data.map((s: any) => s.token)).toEqual([defaults.body.token]);
  });

  it.each([
    [{ url: 'not a url' }, 'url'],
    [{ url: 'ftp://hooks.example.com/x' }, 'url'],
    [{}, 'url'],
    [{ url: 'https://hooks.example.com', event_types: ['card.deleted'] }, 'event_types'],
    [{ url: 'https://hooks.example.com', event_types: 'card.created' }, 'event_types'],
    [{ url: 'https://hooks.example.com', disabled: 'yes' }, 'disabled'],
    [{ url: 'https://hooks.example.com', description: 7 }, 'description'],
    [{ url: 'https://hooks.example.com', secret: 'whsec_mine' }, 'secret'],
  ])('refuses %j naming %s', async (body, field) => {
    const answer = await t.call('POST', '/v1/event_subscriptions', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(field);
    expect(answer.body.debugging_request_id).toEqual(expect.any(String));
  });

  it('validates updates and tokens, and wants an api-key', async () => {
    const { token } = (await t.call('POST', '/v1/event_subscriptions', { body: { url: 'https://hooks.example.com/v' } })).body;
    expect((await t.call('PATCH', `/v1/event_subscriptions/${token}`, { body: { url: 'mailto:ops@example.com' } })).status).toBe(400);
    expect((await t.call('PATCH', `/v1/event_subscriptions/${token}`, { body: { event_types: ['card.created', 'nope'] } })).status).toBe(400);
    expect((await t.call('GET', '/v1/event_subscriptions/not-a-token')).status).toBe(400);
    expect((await t.call('GET', `/v1/event_subscriptions/${token}/messages/not-a-token`)).status).toBe(400);
    expect((await t.call('GET', `/v1/event_subscriptions/${token}/messages?status=lost`)).status).toBe(400);
    expect((await t.call('GET', '/v1/event_subscriptions', { apiKey: null })).status).toBe(401);
    const unknownMessage = randomUUID();
    expect((await t.call('GET', `/v1/event_subscriptions/${token}/messages/${unknownMessage}`)).status).toBe(404);
    expect((await t.call('GET', `/v1/event_subscriptions/${token}/messages/${unknownMessage}/attempts`)).status).toBe(404);
    expect((await t.call('POST', `/v1/event_subscriptions/${token}/messages/${unknownMessage}/resend`)).status).toBe(404);
    expect((await t.call('GET', `/v1/event_subscriptions/${randomUUID()}`)).status).toBe(404);
  });

  it("answers 404 for another program's subscription, whatever the call", async () => {
    const owner = await t.createProgram('owner');
    const other = await t.createProgram('other');
    const { token } = (await t.call('POST', '/v1/event_subscriptions', { apiKey: owner.apiKey, body: { url: 'https://hooks.example.com/o' } })).body;
    const message = randomUUID();
    for (const [method, url, body] of [
      ['GET', `/v1/event_subscriptions/${token}`],
      ['PATCH', `/v1/event_subscriptions/${token}`, { disabled: true }],
      ['DELETE', `/v1/event_subscriptions/${token}`],
      ['GET', `/v1/event_subscriptions/${token}/secret`],
      ['POST', `/v1/event_subscriptions/${token}/secret/rotate`],
      ['GET', `/v1/event_subscriptions/${token}/messages`],
      ['GET', `/v1/event_subscriptions/${token}/attempts`],
      ['GET', `/v1/event_subscriptions/${token}/messages/${message}`],
      ['POST', `/v1/event_subscriptions/${token}/messages/${message}/resend`],
    ] as const) {
      const answer = await t.call(method, url, { apiKey: other.apiKey, body });
      expect({ method, url, status: answer.status }).toEqual({ method, url, status: 404 });
    }
    expect((await t.call('GET', '/v1/event_subscriptions', { apiKey: other.apiKey })).body.total_entries).toBe(0);
    expect((await t.call('GET', `/v1/event_subscriptions/${token}`, { apiKey: owner.apiKey })).body.disabled).toBe(false);
  });
});
