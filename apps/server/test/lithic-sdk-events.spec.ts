import Lithic from 'lithic';
import type { CardCreatedWebhookEvent, CardTransactionUpdatedWebhookEvent, CardUpdatedWebhookEvent, ParsedWebhookEvent } from 'lithic/resources/webhooks';
import type { Event as LithicEvent, EventSubscription as LithicEventSubscription, MessageAttempt } from 'lithic/resources/events/events';
import { eventually, LocalReceiver, ReceivedRequest } from '@ledger/test-support';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * Events, event subscriptions and webhooks through the official `lithic` SDK against the running
 * service, and `webhooks.unwrap()`/`parse()` on real deliveries of every event type we send, read
 * into the SDK's own event types. This file is type-checked (typecheck.spec.ts), so a field name the
 * SDK does not have fails `npm test`. What does not apply is in docs/decisions.md ("Lithic SDK
 * methods: events, webhooks, subscriptions").
 */
let t: TestLedger;
let client: Lithic;
/** /fail/... answers 500; the rest 200. */
const receiver = new LocalReceiver((request) => ({ status: request.path.startsWith('/fail/') ? 500 : 200, body: {} }));

beforeAll(async () => {
  await receiver.start();
  t = await startTestLedger({ WEBHOOK_RETRY_SCHEDULE: '0,100ms', WEBHOOK_POLL_MS: '50' });
  client = new Lithic({ apiKey: t.apiKey, baseURL: t.baseUrl, maxRetries: 0 });
});

afterAll(async () => {
  await t?.stop();
  await receiver.stop();
});

function headersOf(delivery: ReceivedRequest): Record<string, string> {
  return Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name, String(value)]));
}

/** A card's life: every event type we send. */
async function cardLife(): Promise<{ card: string; transaction: string }> {
  const card = await client.cards.create({ type: 'MERCHANT_LOCKED', memo: 'SDK events' });
  await client.cards.update(card.token, { state: 'PAUSED' });
  await client.cards.update(card.token, { state: 'OPEN' });
  const authorized = await client.transactions.simulateAuthorization({ amount: 900, descriptor: 'SDK SHOP', pan: card.pan! });
  await client.transactions.simulateClearing({ token: authorized.token!, amount: 900 });
  return { card: card.token, transaction: authorized.token! };
}

describe('event subscriptions through the SDK', () => {
  it('creates, retrieves, updates, lists, shows and rotates the secret, and deletes', async () => {
    const created = await client.events.subscriptions.create({ url: receiver.url('/ok/crud'), description: 'SDK', event_types: ['card.created'] });
    const typed: LithicEventSubscription = created;
    expect(typed).toMatchObject({ url: receiver.url('/ok/crud'), description: 'SDK', disabled: false, event_types: ['card.created'] });
    expect(await client.events.subscriptions.retrieve(created.token)).toMatchObject({ token: created.token });
    expect(await client.events.subscriptions.update(created.token, { url: receiver.url('/ok/crud2'), disabled: true, event_types: ['card.updated'] })).toMatchObject({
      url: receiver.url('/ok/crud2'),
      disabled: true,
      event_types: ['card.updated'],
    });
    const listed: string[] = [];
    for await (const subscription of client.events.subscriptions.list({ page_size: 1 })) listed.push(subscription.token);
    expect(listed).toContain(created.token);
    const { secret } = await client.events.subscriptions.retrieveSecret(created.token);
    expect(secret).toMatch(/^whsec_/);
    await client.events.subscriptions.rotateSecret(created.token);
    expect((await client.events.subscriptions.retrieveSecret(created.token)).secret).not.toBe(secret);
    await client.events.subscriptions.delete(created.token);
    await expect(client.events.subscriptions.retrieve(created.token)).rejects.toMatchObject({ status: 404 });
  });

  it('recovers failed messages, replays missing events, sends an example and lists attempts', async () => {
    const failing = await client.events.subscriptions.create({ url: receiver.url('/fail/recover') });
    const { card } = await cardLife();
    await eventually('every message failed', async () => {
      const page = (await t.call('GET', `/v1/event_subscriptions/${failing.token}/messages?page_size=100`)).body.data;
      return page.length === 6 && page.every((message: { status: string }) => message.status === 'failed');
    });
    // Walked by cursor, three pages of five.
    const attempts: MessageAttempt[] = [];
    for await (const attempt of client.events.subscriptions.listAttempts(failing.token, { page_size: 5 })) attempts.push(attempt);
    expect(attempts.map((attempt) => attempt.url)).toEqual(Array(12).fill(receiver.url('/fail/recover')));
    // One event's attempts, across the program's subscriptions (events.listAttempts), one per page.
    const created = (await client.events.list({ event_types: ['card.created'], page_size: 20 })).data.find((event) => (event.payload as { card_token?: string }).card_token === card);
    expect(created).toBeDefined();
    const eventAttempts: MessageAttempt[] = [];
    for await (const attempt of client.events.listAttempts(created!.token, { page_size: 1, status: 'FAILED' })) eventAttempts.push(attempt);
    expect(eventAttempts.filter((attempt) => attempt.url === receiver.url('/fail/recover'))).toHaveLength(2);
    expect(eventAttempts.every((attempt) => attempt.event_token === created!.token && attempt.status === 'FAILED')).toBe(true);
    await expect(client.events.listAttempts('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ status: 404 });
    await client.events.subscriptions.update(failing.token, { url: receiver.url('/ok/recover') });
    await client.events.subscriptions.recover(failing.token, { begin: '2020-01-01T00:00:00Z' });
    await eventually('the recovered deliveries', async () => receiver.requestsTo('/ok/recover').length === 6);

    const late = await client.events.subscriptions.create({ url: receiver.url('/ok/replay') });
    await client.events.subscriptions.replayMissing(late.token, { begin: '2020-01-01T00:00:00Z', end: new Date(Date.now() + 60_000).toISOString() });
    await eventually('the replayed events', async () => receiver.requestsTo('/ok/replay').length >= 6);

    await client.events.subscriptions.sendSimulatedExample(late.token, { event_type: 'card_transaction.updated' });
    await eventually('the example', async () => receiver.requestsTo('/ok/replay').some((delivery) => delivery.body.event_type === 'card_transaction.updated' && receiver.requestsTo('/ok/replay').length > 6));
  });
});

describe('events through the SDK', () => {
  it('lists every event with for await over more than 3 pages, filtered by type and time, and retrieves each', async () => {
    const begin = new Date().toISOString();
    await cardLife();
    await cardLife();
    const all: LithicEvent[] = [];
    await eventually('12 events', async () => {
      all.length = 0;
      for await (const event of client.events.list({ begin, page_size: 3 })) all.push(event);
      return all.length === 12;
    });
    const created = all.map((event) => event.created);
    expect([...created].sort().reverse()).toEqual(created);
    for (const event of all) expect(await client.events.retrieve(event.token)).toEqual(event);
    const transactions: LithicEvent[] = [];
    for await (const event of client.events.list({ begin, event_types: ['card_transaction.updated'], page_size: 2 })) transactions.push(event);
    expect(transactions.map((event) => event.event_type)).toEqual(['card_transaction.updated', 'card_transaction.updated', 'card_transaction.updated', 'card_transaction.updated']);
    expect(await client.events.list({ begin, end: begin })).toMatchObject({ data: [] });
  });

  it('resends an event to a subscription, both ways the SDK offers', async () => {
    const subscription = await client.events.subscriptions.create({ url: receiver.url('/ok/resend') });
    const { card } = await cardLife();
    const delivered = await eventually('the card.created delivery', async () => receiver.requestsTo('/ok/resend').find((delivery) => delivery.body.event_type === 'card.created' && delivery.body.card_token === card));
    const event = (await client.events.list({ event_types: ['card.created'], page_size: 1 })).data[0];
    expect(event.payload).toEqual(delivered.body);
    const copies = () => receiver.requestsTo('/ok/resend').filter((delivery) => delivery.headers['webhook-id'] === delivered.headers['webhook-id']).length;
    // One resend at a time: two before the dispatcher takes the first would make one delivery.
    await client.events.resend(event.token, { eventSubscriptionToken: subscription.token });
    await eventually('a second copy', async () => copies() === 2);
    await client.events.eventSubscriptions.resend(subscription.token, { event_token: event.token });
    await eventually('a third copy', async () => copies() === 3);
  });
});

describe('webhooks.unwrap and parse on real deliveries', () => {
  it('verifies and reads every event type we send as the SDK types it', async () => {
    const subscription = await client.events.subscriptions.create({ url: receiver.url('/ok/unwrap') });
    const secret = (await client.events.subscriptions.retrieveSecret(subscription.token)).secret!;
    const { card, transaction } = await cardLife();
    const deliveries = await eventually('six deliveries', async () => receiver.requestsTo('/ok/unwrap').length >= 6 && receiver.requestsTo('/ok/unwrap'));
    const seen = new Set<string>();
    for (const delivery of deliveries) {
      const unwrapped = client.webhooks.unwrap(delivery.raw, headersOf(delivery), secret) as ParsedWebhookEvent;
      const parsed = client.webhooks.parse(delivery.raw, { headers: headersOf(delivery), secret });
      expect(parsed).toEqual(unwrapped);
      expect(client.webhooks.parseUnsafe(delivery.raw)).toEqual(parsed);
      expect(() => client.webhooks.verifySignature(delivery.raw, headersOf(delivery), secret)).not.toThrow();
      seen.add(String(parsed.event_type));
      if (parsed.event_type === 'card.created') {
        const created: CardCreatedWebhookEvent = parsed;
        expect(created.card_token).toBe(card);
      } else if (parsed.event_type === 'card.updated') {
        const updated: CardUpdatedWebhookEvent = parsed;
        expect(updated.card_token).toBe(card);
        expect(typeof updated.state).toBe('string');
        expect(updated.previous_fields).toEqual(expect.any(Object));
      } else if (parsed.event_type === 'card_transaction.updated') {
        const updated: CardTransactionUpdatedWebhookEvent = parsed;
        expect(updated.token).toBe(transaction);
        expect(updated.amount).toBe(900);
        expect(['PENDING', 'SETTLING']).toContain(updated.status);
      }
    }
    expect([...seen].sort()).toEqual(['card.created', 'card.updated', 'card_transaction.updated']);
    // A tampered body or another secret is refused.
    expect(() => client.webhooks.unwrap(deliveries[0].raw.replace(/}$/, ',"x":1}'), headersOf(deliveries[0]), secret)).toThrow();
    expect(() => client.webhooks.unwrap(deliveries[0].raw, headersOf(deliveries[0]), `whsec_${Buffer.alloc(32, 9).toString('base64')}`)).toThrow();
  });
});
