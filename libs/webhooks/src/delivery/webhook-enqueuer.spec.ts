import 'reflect-metadata';
import { Pool } from 'pg';
import { IntegrationMessage, webhookMessageId } from '@ledger/contracts';
import type { EventStore, RecordedEvent } from '@ledger/event-store';
import { createReadModelClient, migrateReadModel, type PrismaClient } from '@ledger/read-model';
import { workerDatabaseUrl } from '@ledger/test-support';
import { WebhookEnqueuer, WebhookSubjectMissing } from './webhook-enqueuer';

/**
 * Which rows an event makes in the webhook outbox, on real PostgreSQL (a schema of its own): the
 * program's enabled subscriptions that want the type and existed when the event happened, once each.
 */
const SCHEMA = `webhook_enqueuer_${process.env.LEDGER_TEST_RUN ?? 'single'}`;
let pool: Pool;
let prisma: PrismaClient;

const program = '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const otherProgram = '9f8e7d6c-5b4a-4392-8172-6f5e4d3c2b1a';
const cardToken = '7ef7d65c-9023-4da3-b113-3b8583fd7951';
const transactionToken = '2b8f3c1d-6e4a-4b9c-8d7e-1f2a3b4c5d6e';
const fundingToken = 'ecbd1d58-0299-48b3-84da-6ed7f5bf9ec1';
const subscriptions = {
  all: '0a000000-0000-4000-8000-000000000001',
  cardsOnly: '0a000000-0000-4000-8000-000000000002',
  disabled: '0a000000-0000-4000-8000-000000000003',
  later: '0a000000-0000-4000-8000-000000000004',
  otherProgram: '0a000000-0000-4000-8000-000000000005',
};
const before = new Date('2026-11-23T08:00:00.000Z');
const occurred = '2026-11-23T09:00:00.000Z';
const after = new Date('2026-11-23T10:00:00.000Z');
const now = new Date('2026-11-23T11:00:00.000Z');

const envelope = (type: string, streamId: string, id: string, programToken = program, streamVersion = 0): IntegrationMessage => ({
  envelope_version: 1,
  id,
  type,
  schema_version: 1,
  occurred_at: occurred,
  program_token: programToken,
  card_token: cardToken,
  stream_id: streamId,
  stream_version: streamVersion,
  position: '1/1',
  data: {},
});

beforeAll(async () => {
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 3 });
  await pool.query(`drop schema if exists "${SCHEMA}" cascade`);
  await migrateReadModel(pool, { schema: SCHEMA });
  prisma = createReadModelClient(pool, { schema: SCHEMA });
  await prisma.fundingSource.create({
    data: { token: fundingToken, programToken: program, type: 'DEPOSITORY_CHECKING', state: 'ENABLED', nickname: '', accountName: 'Checking', lastFour: '1234', isDefault: true, created: before },
  });
  await prisma.card.create({
    data: {
      token: cardToken,
      programToken: program,
      type: 'DIGITAL_WALLET',
      state: 'OPEN',
      memo: 'groceries',
      spendLimit: 0n,
      spendLimitDuration: 'TRANSACTION',
      fundingToken,
      expMonth: '06',
      expYear: '2031',
      lastFour: '4242',
      panHash: 'a'.repeat(64),
      panEncrypted: 'v1.k.iv.tag.body',
      created: before,
      updated: before,
    },
  });
  await prisma.transaction.create({
    data: {
      token: transactionToken,
      programToken: program,
      cardToken,
      fundingToken,
      status: 'PENDING',
      result: 'APPROVED',
      amount: 500n,
      authorizationAmount: 500n,
      settledAmount: 0n,
      merchantAmount: 500n,
      merchantAuthorizationAmount: 500n,
      merchantCurrency: 'USD',
      rateAmount: 500n,
      rateMerchantAmount: 500n,
      authorizationCode: '123456',
      merchantAcceptorId: '',
      merchantCity: '',
      merchantCountry: 'USA',
      merchantDescriptor: 'Shop',
      merchantMcc: '5999',
      merchantState: '',
      events: [{ token: 'e1', type: 'AUTHORIZATION', amount: 500, result: 'APPROVED', created: occurred }],
      version: 0,
      created: before,
      updated: before,
    },
  });
  const subscription = (token: string, extra: object) => ({
    token,
    programToken: program,
    url: 'https://hooks.example.com',
    description: '',
    eventTypes: [] as string[],
    secretSealed: 's',
    created: before,
    updated: before,
    ...extra,
  });
  await prisma.eventSubscription.createMany({
    data: [
      subscription(subscriptions.all, {}),
      subscription(subscriptions.cardsOnly, { eventTypes: ['card.created', 'card.updated'] }),
      subscription(subscriptions.disabled, { disabled: true }),
      subscription(subscriptions.later, { created: after }),
      subscription(subscriptions.otherProgram, { programToken: otherProgram }),
    ],
  });
});

afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.query(`drop schema if exists "${SCHEMA}" cascade`);
  await pool?.end();
});

beforeEach(() => prisma.webhookMessage.deleteMany());

/** The card's own events, which card.updated bodies fold for previous_fields and state: created OPEN, then paused. */
const cardEvents: RecordedEvent[] = [
  {
    type: 'CardCreated',
    data: {
      cardToken, programToken: program, cardType: 'DIGITAL_WALLET', state: 'OPEN', memo: 'groceries', spendLimit: 0, spendLimitDuration: 'FOREVER',
      fundingToken, expMonth: '12', expYear: '2030', lastFour: '4242', panHash: 'h', panEncrypted: 'e', pinHash: null, created: before.toISOString(),
    },
  },
  { type: 'CardPaused', data: { cardToken } },
].map((event, version) => ({
  ...event,
  schemaVersion: 1,
  metadata: { eventId: `c1000000-0000-4000-8000-00000000000${version}`, occurredAt: occurred, programToken: program } as RecordedEvent['metadata'],
  streamId: `card-${cardToken}`,
  streamVersion: version,
  position: { commit: BigInt(version + 1), prepare: BigInt(version + 1) },
  recordedAt: occurred,
}));
/** A backtest's stream: requested, then reported (its report is the whole webhook body). */
const backtestToken = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
const authRuleToken = '4d5e6f7a-8b9c-4d0e-8f1a-2b3c4d5e6f7a';
const window = { start: '2026-10-24T09:00:00.000Z', end: occurred };
const stats = { version: 1, approved: 3, declined: 1, challenged: 0, examples: [{ decision: 'DECLINED', eventToken: 'e9', transactionToken, timestamp: occurred }] };
const backtestEvents: RecordedEvent[] = [
  { type: 'AuthRuleBacktestRequested', data: { backtestToken, authRuleToken, programToken: program, ...window, at: occurred } },
  { type: 'AuthRuleBacktestReported', data: { backtestToken, authRuleToken, programToken: program, ...window, results: { currentVersion: null, draftVersion: stats }, at: occurred } },
].map((event, version) => ({
  ...event,
  schemaVersion: 1,
  metadata: { eventId: `c2000000-0000-4000-8000-00000000000${version}`, occurredAt: occurred, programToken: program } as RecordedEvent['metadata'],
  streamId: `auth-rule-backtest-${backtestToken}`,
  streamVersion: version,
  position: { commit: BigInt(version + 10), prepare: BigInt(version + 10) },
  recordedAt: occurred,
}));
/** A 3DS authentication's stream: each event carries the whole authentication (its webhook body). */
const threeDSToken = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
const threeDSMerchant = { id: 'M1', country: 'USA', mcc: '5812', name: 'COFFEE SHOP' };
const threeDSEvents: RecordedEvent[] = [
  {
    type: 'ThreeDSAuthenticationCreated',
    data: { threeDSAuthenticationToken: threeDSToken, cardToken, programToken: program, merchant: threeDSMerchant, amount: 1250, currency: 'USD', cardExpiryCheck: 'MATCH', result: 'SUCCESS', decisionMadeBy: 'LITHIC_DEFAULT', challenge: null, at: occurred },
  },
].map((event, version) => ({
  ...event,
  schemaVersion: 1,
  metadata: { eventId: `c3000000-0000-4000-8000-00000000000${version}`, occurredAt: occurred, programToken: program } as RecordedEvent['metadata'],
  streamId: `three-ds-authentication-${threeDSToken}`,
  streamVersion: version,
  position: { commit: BigInt(version + 20), prepare: BigInt(version + 20) },
  recordedAt: occurred,
}));
const STREAMS: Readonly<Record<string, RecordedEvent[]>> = {
  [`card-${cardToken}`]: cardEvents,
  [`auth-rule-backtest-${backtestToken}`]: backtestEvents,
  [`three-ds-authentication-${threeDSToken}`]: threeDSEvents,
};
const cardStream: Pick<EventStore, 'readStream'> = {
  readStream: async (streamId, options) => {
    const events = STREAMS[streamId] ?? [];
    return events.slice(options?.fromVersion ?? 0).slice(0, options?.maxCount);
  },
};

const enqueuer = new WebhookEnqueuer([250, 5000], cardStream, () => now);
const enqueue = (...envelopes: IntegrationMessage[]) => prisma.$transaction((tx) => enqueuer.enqueue(tx, envelopes));
const rows = () => prisma.webhookMessage.findMany({ orderBy: { subscriptionToken: 'asc' } });

it('sends a card event to every enabled subscription of the program that wants it and existed when it happened', async () => {
  const eventId = 'c0000000-0000-4000-8000-000000000001';
  expect(await enqueue(envelope('CardPaused', `card-${cardToken}`, eventId, program, 1))).toBe(2);
  const messages = await rows();
  expect(messages.map((row) => row.subscriptionToken)).toEqual([subscriptions.all, subscriptions.cardsOnly]);
  for (const row of messages) {
    expect(row).toMatchObject({ id: webhookMessageId(eventId, row.subscriptionToken), eventId, programToken: program, eventType: 'card.updated', status: 'pending', attempts: 0 });
    expect(row.nextAttemptAt).toEqual(new Date(now.getTime() + 250));
    const body = JSON.parse(row.body);
    // Lithic's card.updated: card_token, previous_fields and state at the top, beside the card object.
    expect(body).toMatchObject({ event_type: 'card.updated', card_token: cardToken, previous_fields: { state: 'OPEN' }, state: 'PAUSED', token: cardToken, memo: 'groceries', last_four: '4242' });
    expect(body).not.toHaveProperty('pan');
    expect(body).not.toHaveProperty('cvv');
  }
});

it('sends transaction events only to subscriptions that want card_transaction.updated', async () => {
  expect(await enqueue(envelope('TransactionAuthorized', `transaction-${transactionToken}`, 'c0000000-0000-4000-8000-000000000002'))).toBe(1);
  const [row] = await rows();
  expect(row.subscriptionToken).toBe(subscriptions.all);
  expect(JSON.parse(row.body)).toMatchObject({ event_type: 'card_transaction.updated', token: transactionToken, amount: 500, card: { token: cardToken }, status: 'PENDING' });
});

it('sends a backtest report as auth_rules.backtest_report.created, its body the report itself', async () => {
  const report = { ...envelope('AuthRuleBacktestReported', `auth-rule-backtest-${backtestToken}`, 'c0000000-0000-4000-8000-000000000007', program, 1), card_token: null };
  expect(await enqueue(report)).toBe(1);
  const [row] = await rows();
  expect(row).toMatchObject({ subscriptionToken: subscriptions.all, eventType: 'auth_rules.backtest_report.created' });
  expect(JSON.parse(row.body)).toEqual({
    event_type: 'auth_rules.backtest_report.created',
    backtest_token: backtestToken,
    results: {
      current_version: null,
      draft_version: { version: 1, approved: 3, declined: 1, challenged: 0, examples: [{ decision: 'DECLINED', event_token: 'e9', transaction_token: transactionToken, timestamp: occurred }] },
    },
    simulation_parameters: window,
  });
  // The request is no news: only the report is sent.
  expect(await enqueue({ ...report, id: 'c0000000-0000-4000-8000-000000000008', type: 'AuthRuleBacktestRequested', stream_version: 0 })).toBe(0);
});

it('sends a 3DS authentication as three_ds_authentication.created, its body the authentication as its event tells it', async () => {
  const created = { ...envelope('ThreeDSAuthenticationCreated', `three-ds-authentication-${threeDSToken}`, 'c0000000-0000-4000-8000-000000000009', program, 0), card_token: null };
  expect(await enqueue(created)).toBe(1);
  const [row] = await rows();
  expect(row).toMatchObject({ subscriptionToken: subscriptions.all, eventType: 'three_ds_authentication.created' });
  expect(JSON.parse(row.body)).toMatchObject({
    event_type: 'three_ds_authentication.created',
    token: threeDSToken,
    card_token: cardToken,
    authentication_result: 'SUCCESS',
    challenge_orchestrated_by: 'NO_CHALLENGE',
    merchant: { ...threeDSMerchant, risk_indicator: {} },
    transaction: { amount: 1250, currency: 'USD' },
    created: occurred,
  });
});

it('makes no webhook of events no webhook carries', async () => {
  expect(await enqueue(envelope('CardAuthorizationApproved', `card-${cardToken}`, 'c0000000-0000-4000-8000-000000000003'))).toBe(0);
  expect(await enqueue(envelope('ProgramSettingsChanged', `program-${program}`, 'c0000000-0000-4000-8000-000000000004'))).toBe(0);
  expect(await rows()).toEqual([]);
});

it('adds nothing when the same event is fed again', async () => {
  const event = envelope('CardCreated', `card-${cardToken}`, 'c0000000-0000-4000-8000-000000000005');
  expect(await enqueue(event)).toBe(2);
  const first = await rows();
  expect(await enqueue(event, event)).toBe(0);
  expect(await rows()).toEqual(first);
});

it('refuses to make a message whose card the read model lacks, so the feed retries instead of losing it', async () => {
  const event = envelope('CardCreated', 'card-00000000-0000-4000-8000-00000000dead', 'c0000000-0000-4000-8000-000000000006');
  await expect(enqueue(event)).rejects.toThrow(WebhookSubjectMissing);
});
