import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { Pool } from 'pg';
import { RecoverEventSubscriptionCommand, ReplayMissingEventsCommand, SendExampleEventCommand, webhookMessageId } from '@ledger/contracts';
import { EventSubscriptionNotFound } from '@ledger/domain';
import { EgressGuard, EgressHttpClient, EgressPolicy } from '@ledger/egress';
import { createReadModelClient, migrateReadModel, type PrismaClient } from '@ledger/read-model';
import { workerDatabaseUrl } from '@ledger/test-support';
import { NoExampleEvent, RecoverEventSubscriptionHandler, ReplayMissingEventsHandler, SendExampleEventHandler } from './redelivery.handlers';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * Redelivery works on the webhook outbox and the events feed, which are PostgreSQL tables read and
 * written through Prisma, not on the event store: these handlers append no event. So they run on a
 * real read model (a schema of its own, migrated as production migrates it), and what they answer
 * and leave in the tables is the specification. The dispatcher is a real one, not started: what
 * matters here is whether the handler wakes it.
 */
const SCHEMA = `redelivery_${process.env.LEDGER_TEST_RUN ?? 'single'}`;
const PROGRAM = '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const OTHER_PROGRAM = '9f8e7d6c-5b4a-4392-8172-6f5e4d3c2b1a';
const SUBSCRIPTION = '0a000000-0000-4000-8000-000000000001';
const OTHER_SUBSCRIPTION = '0a000000-0000-4000-8000-000000000002';
const at = (hour: number) => new Date(Date.UTC(2026, 10, 23, hour));

let pool: Pool;
let prisma: PrismaClient;
let dispatcher: WebhookDispatcher;
let http: EgressHttpClient;
let wakes: jest.SpyInstance;

beforeAll(async () => {
  Logger.overrideLogger(false);
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 3 });
  await pool.query(`drop schema if exists "${SCHEMA}" cascade`);
  await migrateReadModel(pool, { schema: SCHEMA });
  prisma = createReadModelClient(pool, { schema: SCHEMA });
  http = new EgressHttpClient(new EgressGuard(EgressPolicy.of([])));
  const unused = { execute: () => Promise.reject(new Error('the dispatcher is not started here')) };
  dispatcher = new WebhookDispatcher(pool, { decrypt: (sealed: string) => sealed }, unused, http, { retrySchedule: [0], pollMs: 1000, timeoutMs: 1000 });
});

beforeEach(async () => {
  await pool.query(`truncate "${SCHEMA}".event_subscriptions, "${SCHEMA}".webhook_messages, "${SCHEMA}".feed_events`);
  wakes = jest.spyOn(dispatcher, 'wake');
  await prisma.eventSubscription.createMany({
    data: [
      { token: SUBSCRIPTION, programToken: PROGRAM, url: 'https://hooks.acme.example/in', description: '', eventTypes: ['card.created', 'card.updated'], secretSealed: 'whsec_x', created: at(0), updated: at(0) },
      { token: OTHER_SUBSCRIPTION, programToken: OTHER_PROGRAM, url: 'https://hooks.other.example/in', description: '', eventTypes: [], secretSealed: 'whsec_y', created: at(0), updated: at(0) },
    ],
  });
});

afterEach(() => wakes.mockRestore());

afterAll(async () => {
  http.close();
  await prisma.$disconnect();
  await pool.query(`drop schema if exists "${SCHEMA}" cascade`);
  await pool.end();
});

const message = (id: string, status: string, created: Date, subscriptionToken = SUBSCRIPTION, programToken = PROGRAM) => ({
  id,
  eventId: `event-${id}`,
  subscriptionToken,
  programToken,
  eventType: 'card.created',
  body: `{"n":"${id}"}`,
  status,
  attempts: 7,
  roundAttempts: 7,
  nextAttemptAt: null,
  created,
});

const feedEvent = (n: number, eventType: string, created: Date, programToken = PROGRAM) => ({
  token: `0e000000-0000-4000-8000-00000000000${n}`,
  programToken,
  eventType,
  created,
  commitPosition: BigInt(n),
  preparePosition: BigInt(n),
  payload: `{"event":${n}}`,
});

const messages = () => prisma.webhookMessage.findMany({ orderBy: { id: 'asc' }, select: { id: true, eventId: true, status: true, roundAttempts: true, attempts: true, nextAttemptAt: true, body: true, subscriptionToken: true } });

describe('RecoverEventSubscriptionHandler', () => {
  const recover = () => new RecoverEventSubscriptionHandler(prisma, dispatcher);

  it("makes the subscription's failed messages created in the range pending and due now, from the start of the schedule, and wakes the dispatcher", async () => {
    await prisma.webhookMessage.createMany({
      data: [
        message('0b000000-0000-4000-8000-000000000001', 'failed', at(2)),
        message('0b000000-0000-4000-8000-000000000002', 'failed', at(5)),
        message('0b000000-0000-4000-8000-000000000003', 'failed', at(1)),
        message('0b000000-0000-4000-8000-000000000004', 'delivered', at(2)),
        message('0b000000-0000-4000-8000-000000000005', 'failed', at(2), OTHER_SUBSCRIPTION, OTHER_PROGRAM),
      ],
    });
    const before = Date.now();

    const recovered = await recover().execute(new RecoverEventSubscriptionCommand(PROGRAM, SUBSCRIPTION, { begin: at(2), end: at(5) }));

    expect(recovered).toBe(1);
    const rows = await messages();
    expect(rows.map((row) => [row.status, row.roundAttempts, row.attempts])).toEqual([
      ['pending', 0, 7],
      ['failed', 7, 7],
      ['failed', 7, 7],
      ['delivered', 7, 7],
      ['failed', 7, 7],
    ]);
    expect(rows[0].nextAttemptAt?.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(rows[0].nextAttemptAt?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(wakes).toHaveBeenCalledTimes(1);
  });

  it('changes nothing and wakes nobody when no failed message is in the range', async () => {
    await prisma.webhookMessage.createMany({ data: [message('0b000000-0000-4000-8000-000000000001', 'delivered', at(2))] });

    expect(await recover().execute(new RecoverEventSubscriptionCommand(PROGRAM, SUBSCRIPTION, {}))).toBe(0);
    expect((await messages()).map((row) => row.status)).toEqual(['delivered']);
    expect(wakes).not.toHaveBeenCalled();
  });

  it("refuses a subscription of another program, as a missing one, and changes nothing", async () => {
    await prisma.webhookMessage.createMany({ data: [message('0b000000-0000-4000-8000-000000000005', 'failed', at(2), OTHER_SUBSCRIPTION, OTHER_PROGRAM)] });

    await expect(recover().execute(new RecoverEventSubscriptionCommand(PROGRAM, OTHER_SUBSCRIPTION, {}))).rejects.toThrow(EventSubscriptionNotFound);
    expect((await messages()).map((row) => row.status)).toEqual(['failed']);
    expect(wakes).not.toHaveBeenCalled();
  });
});

describe('ReplayMissingEventsHandler', () => {
  const replay = () => new ReplayMissingEventsHandler(prisma, dispatcher);

  it('gives each event of the range that the subscription wants and has no message for one, as the live feed would have, and wakes the dispatcher', async () => {
    const [kept, missing, unwanted, early, foreign] = [
      feedEvent(1, 'card.created', at(2)),
      feedEvent(2, 'card.updated', at(3)),
      feedEvent(3, 'card_transaction.updated', at(3)),
      feedEvent(4, 'card.created', at(0)),
      feedEvent(5, 'card.created', at(3), OTHER_PROGRAM),
    ];
    await prisma.feedEvent.createMany({ data: [kept, missing, unwanted, early, foreign] });
    const existing = webhookMessageId(kept.token, SUBSCRIPTION);
    await prisma.webhookMessage.createMany({ data: [{ ...message(existing, 'delivered', at(2)), eventId: kept.token }] });

    const added = await replay().execute(new ReplayMissingEventsCommand(PROGRAM, SUBSCRIPTION, { begin: at(1) }));

    expect(added).toBe(1);
    const replayed = (await messages()).find((row) => row.eventId === missing.token);
    expect(replayed).toMatchObject({ id: webhookMessageId(missing.token, SUBSCRIPTION), status: 'pending', roundAttempts: 0, attempts: 0, body: missing.payload, subscriptionToken: SUBSCRIPTION });
    expect(await messages()).toHaveLength(2);
    expect(wakes).toHaveBeenCalledTimes(1);
  });

  it('adds nothing and wakes nobody when every wanted event has its message', async () => {
    const event = feedEvent(1, 'card.created', at(2));
    await prisma.feedEvent.createMany({ data: [event] });
    await prisma.webhookMessage.createMany({ data: [{ ...message(webhookMessageId(event.token, SUBSCRIPTION), 'failed', at(2)), eventId: event.token }] });

    expect(await replay().execute(new ReplayMissingEventsCommand(PROGRAM, SUBSCRIPTION, {}))).toBe(0);
    expect(wakes).not.toHaveBeenCalled();
  });

  it('refuses a subscription of another program, adding nothing', async () => {
    await prisma.feedEvent.createMany({ data: [feedEvent(1, 'card.created', at(2), OTHER_PROGRAM)] });

    await expect(replay().execute(new ReplayMissingEventsCommand(PROGRAM, OTHER_SUBSCRIPTION, {}))).rejects.toThrow(EventSubscriptionNotFound);
    expect(await messages()).toEqual([]);
  });
});

describe('SendExampleEventHandler', () => {
  const example = () => new SendExampleEventHandler(prisma, dispatcher);

  it("queues a copy of the program's latest event of the type, under a message id of its own, and wakes the dispatcher", async () => {
    await prisma.feedEvent.createMany({ data: [feedEvent(1, 'card.updated', at(2)), feedEvent(2, 'card.updated', at(4)), feedEvent(3, 'card.updated', at(6), OTHER_PROGRAM), feedEvent(4, 'card.created', at(7))] });

    const id = await example().execute(new SendExampleEventCommand(PROGRAM, SUBSCRIPTION, 'card.updated'));

    expect(await messages()).toEqual([
      { id, eventId: `example-${id}`, status: 'pending', roundAttempts: 0, attempts: 0, nextAttemptAt: expect.any(Date), body: '{"event":2}', subscriptionToken: SUBSCRIPTION },
    ]);
    expect(wakes).toHaveBeenCalledTimes(1);
  });

  it('refuses when the program has no event of that type yet', async () => {
    await prisma.feedEvent.createMany({ data: [feedEvent(1, 'card.updated', at(2), OTHER_PROGRAM)] });

    await expect(example().execute(new SendExampleEventCommand(PROGRAM, SUBSCRIPTION, 'card.updated'))).rejects.toThrow(NoExampleEvent);
    expect(await messages()).toEqual([]);
    expect(wakes).not.toHaveBeenCalled();
  });

  it('refuses a subscription of another program', async () => {
    await prisma.feedEvent.createMany({ data: [feedEvent(1, 'card.updated', at(2))] });

    await expect(example().execute(new SendExampleEventCommand(PROGRAM, OTHER_SUBSCRIPTION, 'card.updated'))).rejects.toThrow(EventSubscriptionNotFound);
    expect(await messages()).toEqual([]);
  });
});
