import { Global, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Admin, Kafka } from 'kafkajs';
import { randomBytes, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { CardVault } from '@ledger/card-vault';
import { encodeEvent, EVENT_SCHEMA_VERSIONS, SECRET_EVENT_FIELDS, TOPICS, type IntegrationMessage, type LedgerEvent, type Topic } from '@ledger/contracts';
import { cardNumberStreamId, cardStreamId, programStreamId, transactionStreamId, type AuthorizationFacts, type TransactionEvent } from '@ledger/domain';
import { comparePositions, NO_STREAM, PostgresEventStore, type GlobalPosition } from '@ledger/event-store';
import { createKafka, ensureTopics, type KafkaLogEntry } from '@ledger/messaging';
import { createReadModelClient, migrateReadModel, type ReadModelClient } from '@ledger/read-model';
import { DigestKeys, EVENT_STORE, LEDGER_CONFIG, LedgerTreeTables, loadConfig, READ_MODEL } from '@ledger/runtime';
import { generateSigningKeyPem } from '@ledger/ledger-proof';
import { describeNeeding, truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { runIdempotentConsumer, type RunningIdempotentConsumer } from './idempotent-consumer';
import { IntegrationPublisher, KAFKA_PUBLISHER, MESSAGE_HEADERS } from './integration-publisher';
import { IntegrationModule } from './integration.module';

// Against the real broker of infra/kafka (never a mock). Topics are shared with every other run, so
// each test uses its own program, card and transaction tokens, its own checkpoint name and its own
// consumer groups, and only looks at the messages of its own program.

const BROKERS = process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim()).filter(Boolean) ?? [];
const describeKafka = describeNeeding(BROKERS.length > 0 ? null : 'KAFKA_BROKERS is not set; start infra/kafka/start.sh and export KAFKA_BROKERS=127.0.0.1:9092');

const ALL_TOPICS: readonly Topic[] = Object.values(TOPICS);

let pool: Pool;
let store: PostgresEventStore;
let readModel: ReadModelClient;

/** Silent logger for publishers; the lines are kept for assertions and failure messages. */
function recordingLogger() {
  const lines: string[] = [];
  const keep = (level: string) => (message: unknown) => void lines.push(`${level} ${String(message)}`);
  return { lines, log: keep('log'), warn: keep('warn'), error: keep('error') };
}

async function openDatabase(): Promise<void> {
  // idleTimeoutMillis 0 keeps idle connections open: another run's global setup drops every ledger_test_*
  // database that has no connection at that moment, and this suite has quiet moments between tests.
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 10, idleTimeoutMillis: 0 });
  store = new PostgresEventStore(pool, { pollIntervalMs: 200 });
  await store.migrate();
  await migrateReadModel(pool);
  readModel = createReadModelClient(pool);
  await truncateAll(pool);
}

async function closeDatabase(): Promise<void> {
  await truncateAll(pool);
  await readModel.$disconnect();
  await store.close();
  await pool.end();
}

// ---------------------------------------------------------------- a realistic slice of the ledger

interface Ids {
  readonly program: string;
  readonly card: string;
  readonly transaction: string;
  readonly pan: string;
  readonly panHash: string;
  readonly panEncrypted: string;
  readonly pinHash: string;
  readonly keyHash: string;
}

interface Step {
  readonly streamId: string;
  readonly event: LedgerEvent;
}

interface Appended {
  readonly id: string;
  readonly streamId: string;
  readonly type: string;
  readonly published: boolean;
}

const vault = new CardVault(randomBytes(32));

function newIds(): Ids {
  const card = randomUUID();
  // The clear PAN lives only in this test's memory: the events get what the card service would write.
  const pan = vault.newCardNumber();
  const secrets = vault.protect(pan);
  return {
    program: randomUUID(),
    card,
    transaction: randomUUID(),
    pan,
    panHash: secrets.panHash,
    panEncrypted: secrets.panEncrypted,
    pinHash: vault.pinHash(card, '1234'),
    keyHash: randomBytes(32).toString('hex'),
  };
}

/** A program, a card's life, and one transaction that authorizes, clears and settles. */
function ledgerLife(ids: Ids): Step[] {
  const at = new Date().toISOString();
  const merchant = { acceptorId: '174030075991', city: 'NEW YORK', country: 'USA', descriptor: 'COFFEE SHOP', mcc: '5814', state: 'NY' };
  const facts = {
    cardToken: ids.card,
    programToken: ids.program,
    transactionToken: ids.transaction,
    eventToken: randomUUID(),
    amount: 1250,
    merchant,
    merchantAmount: 1250,
    merchantCurrency: 'USD',
    authorizationCode: '123456',
    fundingToken: `${ids.program}-funding`,
    at,
  };
  const program = programStreamId(ids.program);
  const card = cardStreamId(ids.card);
  const transaction = transactionStreamId(ids.transaction);
  return [
    { streamId: program, event: { type: 'ProgramCreated', data: { programToken: ids.program, name: 'Kafka test program', created: at } } },
    { streamId: program, event: { type: 'ApiKeyIssued', data: { programToken: ids.program, keyId: randomUUID(), keyHash: ids.keyHash, created: at } } },
    {
      streamId: cardNumberStreamId(ids.panHash),
      event: { type: 'CardNumberAssigned', data: { panHash: ids.panHash, cardToken: ids.card, programToken: ids.program } },
    },
    {
      streamId: card,
      event: {
        type: 'CardCreated',
        data: {
          cardToken: ids.card,
          programToken: ids.program,
          cardType: 'DIGITAL_WALLET',
          state: 'OPEN',
          memo: 'kafka test card',
          spendLimit: 100_000,
          spendLimitDuration: 'MONTHLY',
          fundingToken: facts.fundingToken,
          expMonth: '06',
          expYear: '2029',
          lastFour: ids.pan.slice(-4),
          panHash: ids.panHash,
          panEncrypted: ids.panEncrypted,
          pinHash: ids.pinHash,
          created: at,
        },
      },
    },
    { streamId: card, event: { type: 'CardPaused', data: { cardToken: ids.card } } },
    { streamId: card, event: { type: 'CardResumed', data: { cardToken: ids.card } } },
    { streamId: card, event: { type: 'CardAuthorizationApproved', data: facts } },
    { streamId: transaction, event: { type: 'TransactionAuthorized', data: { ...facts, result: 'APPROVED' } } },
    { streamId: card, event: { type: 'CardDetailsChanged', data: { cardToken: ids.card, memo: 'renamed', pinHash: vault.pinHash(ids.card, '9876') } } },
    {
      streamId: transaction,
      event: { type: 'TransactionCleared', data: { transactionToken: ids.transaction, eventToken: randomUUID(), amount: 1250, at } },
    },
    {
      streamId: card,
      event: { type: 'CardSpendAdjusted', data: { cardToken: ids.card, transactionToken: ids.transaction, transactionVersion: 1, cause: 'CLEARING', amount: 1250 } },
    },
    { streamId: transaction, event: { type: 'TransactionSettled', data: { transactionToken: ids.transaction, at } } },
    { streamId: card, event: { type: 'CardClosed', data: { cardToken: ids.card, reason: 'REQUESTED' } } },
  ];
}

/** One append (one commit, one global position) per step, with real expected versions. */
async function appendSteps(ids: Ids, steps: readonly Step[]): Promise<Appended[]> {
  const appended: Appended[] = [];
  for (const { streamId, event } of steps) {
    const existing = await store.readStream(streamId);
    const encoded = encodeEvent(event, {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      programToken: ids.program,
      occurredAt: new Date().toISOString(),
    });
    await store.append(streamId, [encoded], existing.length === 0 ? NO_STREAM : existing.length - 1);
    appended.push({ id: encoded.metadata.eventId, streamId, type: event.type, published: !streamId.startsWith('cardnumber-') });
  }
  return appended;
}

// ---------------------------------------------------------------- every transaction event type

type TransactionEventType = TransactionEvent['type'];

/**
 * One event of each transaction event type, for the transaction whose opening facts are given. A
 * mapped type over the domain's union: a new transaction event type does not compile until it has a
 * sample here, and the test below also checks these against the event catalog.
 */
const TRANSACTION_EVENT_SAMPLES: { readonly [Type in TransactionEventType]: (facts: AuthorizationFacts) => Extract<TransactionEvent, { type: Type }> } = {
  TransactionAuthorized: (facts) => ({ type: 'TransactionAuthorized', data: { ...facts, result: 'APPROVED' } }),
  TransactionReturned: (facts) => ({ type: 'TransactionReturned', data: facts }),
  TransactionReturnReversed: (facts) => ({
    type: 'TransactionReturnReversed',
    data: { transactionToken: facts.transactionToken, eventToken: randomUUID(), amount: facts.amount, at: facts.at },
  }),
  TransactionAdvised: (facts) => ({ type: 'TransactionAdvised', data: { transactionToken: facts.transactionToken, eventToken: randomUUID(), amount: 1500, at: facts.at } }),
  TransactionVoided: (facts) => ({ type: 'TransactionVoided', data: { transactionToken: facts.transactionToken, eventToken: randomUUID(), amount: 500, at: facts.at } }),
  TransactionExpired: (facts) => ({ type: 'TransactionExpired', data: { transactionToken: facts.transactionToken, eventToken: randomUUID(), amount: 1000, at: facts.at } }),
  TransactionCleared: (facts) => ({ type: 'TransactionCleared', data: { transactionToken: facts.transactionToken, eventToken: randomUUID(), amount: 1000, at: facts.at } }),
  TransactionDisputeWon: (facts) => ({
    type: 'TransactionDisputeWon',
    data: { transactionToken: facts.transactionToken, eventToken: randomUUID(), amount: 400, at: facts.at, disputeToken: randomUUID() },
  }),
  TransactionSettled: (facts) => ({ type: 'TransactionSettled', data: { transactionToken: facts.transactionToken, at: facts.at } }),
  TransactionBounced: (facts) => ({ type: 'TransactionBounced', data: { transactionToken: facts.transactionToken, at: facts.at, fundingState: 'DELETED' } }),
  // Never published (topicFor skips it): a withdrawn token opens no transaction.
  AuthorizationWithdrawn: (facts) => ({ type: 'AuthorizationWithdrawn', data: { transactionToken: facts.transactionToken, programToken: facts.programToken, at: facts.at } }),
  // Never published either: a withdrawn event token moves nothing.
  EventTokenWithdrawn: (facts) => ({
    type: 'EventTokenWithdrawn',
    data: { transactionToken: facts.transactionToken, programToken: facts.programToken, eventToken: randomUUID(), at: facts.at },
  }),
};

/** The transaction event types of the event catalog (what the store can hold), not of this file. */
const CATALOG_TRANSACTION_TYPES = Object.keys(EVENT_SCHEMA_VERSIONS).filter((type) => type.startsWith('Transaction')).sort();

function openingFacts(programToken: string): AuthorizationFacts {
  return {
    cardToken: randomUUID(),
    programToken,
    transactionToken: randomUUID(),
    eventToken: randomUUID(),
    amount: 1000,
    merchant: { acceptorId: '174030075991', city: 'NEW YORK', country: 'USA', descriptor: 'COFFEE SHOP', mcc: '5814', state: 'NY' },
    merchantAmount: 1000,
    merchantCurrency: 'USD',
    authorizationCode: '123456',
    fundingToken: `${programToken}-funding`,
    at: new Date().toISOString(),
  };
}

/**
 * Transactions, each on its own card, whose lives together hold every transaction event type: the
 * opening events, then the rest. Each life is one the domain allows.
 */
function transactionLives(programToken: string): { opening: Step[]; rest: Step[]; cardOf: Map<string, string> } {
  const lives: TransactionEventType[][] = [
    ['TransactionAuthorized', 'TransactionAdvised', 'TransactionVoided', 'TransactionCleared', 'TransactionSettled'],
    ['TransactionAuthorized', 'TransactionCleared', 'TransactionBounced'],
    ['TransactionAuthorized', 'TransactionCleared', 'TransactionSettled', 'TransactionDisputeWon'],
    ['TransactionReturned', 'TransactionSettled', 'TransactionReturnReversed'],
    ['TransactionAuthorized', 'TransactionExpired'],
  ];
  const opening: Step[] = [];
  const rest: Step[] = [];
  const cardOf = new Map<string, string>();
  for (const [first, ...later] of lives) {
    const facts = openingFacts(programToken);
    const streamId = transactionStreamId(facts.transactionToken);
    cardOf.set(streamId, facts.cardToken);
    opening.push({ streamId, event: TRANSACTION_EVENT_SAMPLES[first](facts) });
    for (const type of later) rest.push({ streamId, event: TRANSACTION_EVENT_SAMPLES[type](facts) });
  }
  return { opening, rest, cardOf };
}

// ---------------------------------------------------------------- waiting and consuming

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves once the publisher's checkpoint reached the head of the log. */
async function published(publisher: IntegrationPublisher, logger?: { lines: string[] }): Promise<GlobalPosition> {
  const head = await store.headPosition();
  if (head === null) throw new Error('empty log');
  return waitFor(`the publisher to reach ${head.commit}/${head.prepare} (log: ${logger?.lines.join(' | ') ?? ''})`, async () => {
    const done = await publisher.checkpoint();
    return done && comparePositions(done, head) >= 0 ? done : undefined;
  });
}

interface Consumed {
  readonly topic: string;
  readonly partition: number;
  readonly offset: bigint;
  readonly key: string | null;
  readonly headers: Record<string, string>;
  readonly raw: string;
  readonly message: IntegrationMessage;
}

function parse(raw: string): IntegrationMessage | null {
  try {
    return JSON.parse(raw) as IntegrationMessage;
  } catch {
    return null;
  }
}

function byOffset(a: Consumed, b: Consumed): number {
  return a.topic === b.topic ? a.partition - b.partition || Number(a.offset - b.offset) : a.topic < b.topic ? -1 : 1;
}

describeKafka('Kafka integration', () => {
  let kafka: Kafka;
  let admin: Admin;
  const kafkaLog: KafkaLogEntry[] = [];
  const groups: string[] = [];
  const running: Array<{ stop(): Promise<void> }> = [];

  beforeAll(async () => {
    await openDatabase();
    kafka = createKafka({ clientId: 'ledger-integration-test', brokers: BROKERS, log: (entry) => kafkaLog.push(entry) });
    admin = kafka.admin();
    await admin.connect();
    await ensureTopics(admin, ALL_TOPICS);
  });

  afterEach(async () => {
    for (const item of running.splice(0).reverse()) await item.stop();
  });

  afterAll(async () => {
    if (groups.length > 0) await admin?.deleteGroups(groups).catch(() => undefined);
    await admin?.disconnect();
    await pool.query('drop table if exists kafka_test_applied');
    await closeDatabase();
  });

  function newGroup(label: string): string {
    const group = `ledger-test-${label}-${randomUUID()}`;
    groups.push(group);
    return group;
  }

  function startPublisher(checkpointName: string) {
    const logger = recordingLogger();
    const publisher = new IntegrationPublisher(store, readModel, kafka, checkpointName, { logger, batchSize: 5 });
    publisher.start();
    running.push(publisher);
    return { publisher, logger };
  }

  /** A fresh group from the beginning of the shared topics; keeps only this program's messages. */
  async function consume(programToken: string, expected: number, topics: readonly Topic[] = ALL_TOPICS): Promise<Consumed[]> {
    const consumer = kafka.consumer({ groupId: newGroup('reader'), maxWaitTimeInMs: 100 });
    const records: Consumed[] = [];
    let complete: () => void = () => undefined;
    const completed = new Promise<void>((resolve) => (complete = resolve));
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [...topics], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ topic, partition, message }) => {
          const raw = message.value?.toString('utf8') ?? '';
          const parsed = parse(raw);
          if (parsed?.program_token !== programToken) return;
          const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]));
          records.push({ topic, partition, offset: BigInt(message.offset), key: message.key?.toString('utf8') ?? null, headers, raw, message: parsed });
          if (records.length >= expected) complete();
        },
      });
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${records.length} of ${expected} messages arrived`)), 20_000);
      });
      await Promise.race([completed, timeout]).finally(() => clearTimeout(timer));
    } finally {
      await consumer.disconnect();
    }
    return records.sort(byOffset);
  }

  it('publishes a card, its transaction and its program in order, keyed by the card, with the envelope and no secrets', async () => {
    const ids = newIds();
    const appended = await appendSteps(ids, ledgerLife(ids));
    const { publisher, logger } = startPublisher(`kafka-test-${randomUUID()}`);
    await published(publisher, logger);

    const expected = appended.filter((a) => a.published);
    const records = await consume(ids.program, expected.length);

    // Each message once (a clean run: the idempotent producer drops its own retries), internal events never.
    expect(records.map((r) => r.message.id).sort()).toEqual(expected.map((a) => a.id).sort());
    const internal = appended.find((a) => !a.published)!;
    expect(records.some((r) => r.raw.includes(internal.streamId))).toBe(false);

    const cards = records.filter((r) => r.message.stream_id === cardStreamId(ids.card));
    expect(cards.map((r) => r.message.type)).toEqual([
      'CardCreated',
      'CardPaused',
      'CardResumed',
      'CardAuthorizationApproved',
      'CardDetailsChanged',
      'CardSpendAdjusted',
      'CardClosed',
    ]);
    expect(new Set(cards.map((r) => r.topic))).toEqual(new Set([TOPICS.cards]));
    expect(new Set(cards.map((r) => r.partition)).size).toBe(1);
    expect(new Set(cards.map((r) => r.key))).toEqual(new Set([ids.card]));
    expect(cards.map((r) => r.message.stream_version)).toEqual([0, 1, 2, 3, 4, 5, 6]);

    // The transaction's clearing and settlement name no card in their data; their envelopes carry the
    // transaction's card all the same and are keyed by it, so the transaction stays on one partition, in order.
    const transaction = records.filter((r) => r.message.stream_id === transactionStreamId(ids.transaction));
    expect(transaction.map((r) => [r.topic, r.key, r.message.type, r.message.stream_version])).toEqual([
      [TOPICS.transactions, ids.card, 'TransactionAuthorized', 0],
      [TOPICS.transactions, ids.card, 'TransactionCleared', 1],
      [TOPICS.transactions, ids.card, 'TransactionSettled', 2],
    ]);
    expect(new Set(transaction.map((r) => r.partition)).size).toBe(1);

    const program = records.filter((r) => r.message.stream_id === programStreamId(ids.program));
    expect(program.map((r) => [r.topic, r.key, r.message.type])).toEqual([
      [TOPICS.programs, ids.program, 'ProgramCreated'],
      [TOPICS.programs, ids.program, 'ApiKeyIssued'],
    ]);

    // The envelope, and the headers that repeat it.
    for (const record of records) {
      const { message } = record;
      const source = appended.find((a) => a.id === message.id)!;
      expect(message).toEqual({
        envelope_version: 1,
        id: source.id,
        type: source.type,
        schema_version: 1,
        occurred_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        program_token: ids.program,
        card_token: source.streamId === programStreamId(ids.program) ? null : ids.card,
        stream_id: source.streamId,
        stream_version: expect.any(Number),
        position: expect.stringMatching(/^\d+\/\d+$/),
        data: expect.any(Object),
      });
      expect(record.headers).toEqual({
        [MESSAGE_HEADERS.id]: message.id,
        [MESSAGE_HEADERS.type]: message.type,
        [MESSAGE_HEADERS.envelopeVersion]: '1',
      });
    }
    const created = cards[0].message.data;
    expect(created).toMatchObject({ cardToken: ids.card, lastFour: ids.pan.slice(-4), cardType: 'DIGITAL_WALLET', state: 'OPEN' });

    // Card secrets (invariant 6): no secret field, no value of one, no card number, nothing 16 digits long.
    for (const { raw } of records) {
      for (const field of SECRET_EVENT_FIELDS) expect(raw).not.toContain(`"${field}"`);
      for (const secret of [ids.pan, ids.panHash, ids.panEncrypted, ids.pinHash, ids.keyHash]) expect(raw).not.toContain(secret);
      expect(raw).not.toMatch(/\d{16}/);
    }
  });

  it('resumes from its checkpoint after a restart without losing a message; a resend after a lost checkpoint repeats the same ids', async () => {
    const ids = newIds();
    const checkpointName = `kafka-test-${randomUUID()}`;
    const steps = ledgerLife(ids);
    // The first part ends with the transaction's authorization, so the publisher that sends its
    // clearing and settlement has never seen the transaction's card and must look it up.
    const first = await appendSteps(ids, steps.slice(0, 8));
    expect(first[first.length - 1].type).toBe('TransactionAuthorized');

    const one = startPublisher(checkpointName);
    const afterFirst = await published(one.publisher, one.logger);
    await one.publisher.stop();

    // Written while no publisher runs.
    const second = await appendSteps(ids, steps.slice(8));
    const two = startPublisher(checkpointName);
    await published(two.publisher, two.logger);
    await two.publisher.stop();
    expect(two.logger.lines.some((line) => line.includes(`publishing integration messages from ${afterFirst.commit}/${afterFirst.prepare}`))).toBe(true);

    // A crash after the broker acknowledged the second part and before the checkpoint was written:
    // put the checkpoint back, and a new publisher sends that part again.
    await readModel.projectorCheckpoint.update({
      where: { name: checkpointName },
      data: { commitPosition: afterFirst.commit, preparePosition: afterFirst.prepare },
    });
    const three = startPublisher(checkpointName);
    await published(three.publisher, three.logger);

    const once = first.filter((a) => a.published);
    const twice = second.filter((a) => a.published);
    const records = await consume(ids.program, once.length + 2 * twice.length);

    const seen = new Map<string, Consumed[]>();
    for (const record of records) seen.set(record.message.id, [...(seen.get(record.message.id) ?? []), record]);
    for (const a of once) expect(seen.get(a.id)).toHaveLength(1);
    for (const a of twice) {
      const copies = seen.get(a.id)!;
      expect(copies).toHaveLength(2);
      // The same message: same key, same partition, same id header, same body.
      expect(copies[0].key).toBe(copies[1].key);
      expect(copies[0].partition).toBe(copies[1].partition);
      expect(copies[0].headers[MESSAGE_HEADERS.id]).toBe(a.id);
      expect(copies[1].raw).toBe(copies[0].raw);
    }
    expect(seen.size).toBe(once.length + twice.length);

    // De-duplicated by id, the card's messages are its stream, in order, with no gap.
    const cardVersions: number[] = [];
    const firstSeen = new Set<string>();
    for (const record of records.filter((r) => r.topic === TOPICS.cards && r.message.stream_id === cardStreamId(ids.card))) {
      if (firstSeen.has(record.message.id)) continue;
      firstSeen.add(record.message.id);
      cardVersions.push(record.message.stream_version);
    }
    expect(cardVersions).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const transaction = records.filter((r) => r.message.stream_id === transactionStreamId(ids.transaction));
    expect(new Set(transaction.map((r) => `${r.topic}|${r.partition}|${r.key}`)).size).toBe(1);
    expect(transaction[0].key).toBe(ids.card);
  });

  it('every transaction event type of the catalog is published with its card token and program token, also after a restart mid-transaction', async () => {
    const ids = newIds();
    const { opening, rest, cardOf } = transactionLives(ids.program);
    const types = [...new Set([...opening, ...rest].map((step) => step.event.type))].sort();
    expect(types).toEqual(CATALOG_TRANSACTION_TYPES);

    // The opening events first; a new publisher (nothing remembered) then sends the rest and has to
    // find each transaction's card on its own.
    const checkpointName = `kafka-test-${randomUUID()}`;
    const first = await appendSteps(ids, opening);
    const one = startPublisher(checkpointName);
    await published(one.publisher, one.logger);
    await one.publisher.stop();
    const second = await appendSteps(ids, rest);
    const two = startPublisher(checkpointName);
    await published(two.publisher, two.logger);

    const records = await consume(ids.program, first.length + second.length, [TOPICS.transactions]);
    expect(records.map((r) => r.message.id).sort()).toEqual([...first, ...second].map((a) => a.id).sort());
    expect([...new Set(records.map((r) => r.message.type))].sort()).toEqual(CATALOG_TRANSACTION_TYPES);
    for (const { message, key } of records) {
      const card = cardOf.get(message.stream_id)!;
      expect({ type: message.type, card_token: message.card_token, program_token: message.program_token, key }).toEqual({
        type: message.type,
        card_token: card,
        program_token: ids.program,
        key: card,
      });
    }
  });

  it('the idempotent consumer, restarted mid-stream and fed repeats, applies each message exactly once', async () => {
    const ids = newIds();
    const topics = [TOPICS.cards, TOPICS.transactions];
    const groupId = newGroup('idempotent');
    // Where the shared topics end now: this test's messages all come after. Each consumer seeks there
    // right after joining, so it reads this test's messages and not the topics' history. (kafkajs's
    // admin.setOffsets would do the same for the group, but it joins with a throwaway consumer and
    // waits for a fetch: about 5 s a call.)
    const start = await Promise.all(
      topics.map(async (topic) => ({ topic, partitions: (await admin.fetchTopicOffsets(topic)).map(({ partition, high }) => ({ partition, offset: high })) })),
    );
    const seekToStart = (running: RunningIdempotentConsumer): void => {
      for (const { topic, partitions } of start) for (const entry of partitions) running.consumer.seek({ topic, ...entry });
    };

    await pool.query(
      `create table if not exists kafka_test_applied (message_id uuid not null, stream_id text not null, stream_version int not null, run text not null)`,
    );
    const name = `kafka-test-consumer-${randomUUID()}`;
    const deliveries: Array<{ run: string; id: string; applied: boolean }> = [];
    const appliedOrder: Array<{ streamId: string; version: number }> = [];
    let appliedByA = 0;
    let reachedThree: () => void = () => undefined;
    const threeApplied = new Promise<void>((resolve) => (reachedThree = resolve));

    const startConsumer = async (run: string, slowMs: number): Promise<RunningIdempotentConsumer> => {
      const consumer = await runIdempotentConsumer({
        kafka,
        groupId,
        topics,
        pool,
        name,
        fromBeginning: false,
        // Short fetch long-polls, so that stop() does not wait up to kafkajs's default 5 s.
        consumer: { maxWaitTimeInMs: 100 },
        apply: async (message, client) => {
          if (message.program_token !== ids.program) return;
          await client.query(`insert into kafka_test_applied (message_id, stream_id, stream_version, run) values ($1, $2, $3, $4)`, [
            message.id,
            message.stream_id,
            message.stream_version,
            run,
          ]);
          appliedOrder.push({ streamId: message.stream_id, version: message.stream_version });
          if (run === 'A' && ++appliedByA === 3) reachedThree();
          if (slowMs > 0) await new Promise((resolve) => setTimeout(resolve, slowMs));
        },
        onProcessed: (message, applied) => {
          if (message.program_token === ids.program) deliveries.push({ run, id: message.id, applied });
        },
      });
      running.push(consumer);
      seekToStart(consumer);
      return consumer;
    };

    // A applies slowly and is stopped after its third message, in the middle of the stream.
    const a = await startConsumer('A', 150);
    const appended = await appendSteps(ids, ledgerLife(ids));
    const ours = appended.filter((x) => x.published && !x.streamId.startsWith('program-'));
    const publisher = startPublisher(`kafka-test-${randomUUID()}`);
    await published(publisher.publisher, publisher.logger);
    await threeApplied;
    await a.stop();
    const fromA = deliveries.filter((d) => d.run === 'A');
    const appliedByAIds = fromA.filter((d) => d.applied).map((d) => d.id);
    expect(appliedByAIds.length).toBeGreaterThanOrEqual(3);
    expect(appliedByAIds.length).toBeLessThan(ours.length);

    // B joins the same group. A committed the offsets of what it processed; B is put back to the start
    // anyway, as if A had died after its database commits and before its offset commits, so B is
    // handed again everything A already applied.
    const b = await startConsumer('B', 0);
    await waitFor(`B to be handed all ${ours.length} messages`, async () => {
      const seenByB = new Set(deliveries.filter((d) => d.run === 'B').map((d) => d.id));
      return ours.every((o) => seenByB.has(o.id)) ? true : undefined;
    });
    await b.stop();

    // Every message seen at least once, some of them twice ...
    expect(new Set(deliveries.map((d) => d.id))).toEqual(new Set(ours.map((o) => o.id)));
    expect(deliveries.length).toBeGreaterThan(ours.length);
    // ... and applied exactly once: B dropped the ids A had applied, and applied the others.
    const droppedByB = new Set(deliveries.filter((d) => d.run === 'B' && !d.applied).map((d) => d.id));
    for (const id of appliedByAIds) expect(droppedByB.has(id)).toBe(true);
    const applied = deliveries.filter((d) => d.applied).map((d) => d.id);
    expect(applied.sort()).toEqual(ours.map((o) => o.id).sort());
    const rows = await pool.query<{ message_id: string; n: string }>(
      `select message_id, count(*)::text as n from kafka_test_applied where message_id = any($1::uuid[]) group by message_id`,
      [ours.map((o) => o.id)],
    );
    expect(rows.rows.map((r) => r.message_id).sort()).toEqual(ours.map((o) => o.id).sort());
    expect(rows.rows.every((r) => r.n === '1')).toBe(true);
    const processed = await pool.query(`select count(*)::int as n from processed_messages where consumer = $1 and message_id = any($2::uuid[])`, [
      name,
      ours.map((o) => o.id),
    ]);
    expect(processed.rows[0].n).toBe(ours.length);

    // Effects happened in stream order, across the restart.
    for (const streamId of [cardStreamId(ids.card), transactionStreamId(ids.transaction)]) {
      const versions = appliedOrder.filter((x) => x.streamId === streamId).map((x) => x.version);
      expect(versions).toEqual([...Array(versions.length).keys()]);
    }
    await pool.query(`delete from kafka_test_applied where message_id = any($1::uuid[])`, [ours.map((o) => o.id)]);
    await pool.query(`delete from processed_messages where consumer = $1`, [name]);
  });

  it('IntegrationModule starts the publisher on bootstrap and stops it on shutdown when KAFKA_BROKERS is set', async () => {
    await truncateAll(pool);
    const ids = newIds();
    await appendSteps(ids, ledgerLife(ids).slice(0, 4));

    @Global()
    @Module({
      providers: [
        { provide: LEDGER_CONFIG, useValue: loadConfig({ KAFKA_BROKERS: BROKERS.join(',') }) },
        { provide: EVENT_STORE, useValue: store },
        { provide: READ_MODEL, useValue: readModel },
        { provide: DigestKeys, useValue: DigestKeys.fromConfig(loadConfig({ LEDGER_SIGNING_KEY: generateSigningKeyPem() })) },
        { provide: LedgerTreeTables, useValue: new LedgerTreeTables(pool) },
      ],
      exports: [LEDGER_CONFIG, EVENT_STORE, READ_MODEL, DigestKeys, LedgerTreeTables],
    })
    class TestInfrastructure {}

    const moduleRef = await Test.createTestingModule({ imports: [TestInfrastructure, IntegrationModule] }).compile();
    moduleRef.useLogger(false);
    const app = moduleRef.createNestApplication(new FastifyAdapter());
    await app.init();
    try {
      const publisher = app.get(IntegrationModule).publisher;
      expect(publisher).toBeInstanceOf(IntegrationPublisher);
      await published(publisher!);
      const row = await readModel.projectorCheckpoint.findUnique({ where: { name: KAFKA_PUBLISHER } });
      expect(row).not.toBeNull();
    } finally {
      await app.close();
    }
  });
});

describe('IntegrationPublisher with no broker reachable', () => {
  beforeAll(openDatabase);
  afterAll(closeDatabase);

  it('keeps its checkpoint, logs, retries with backoff, and stops promptly', async () => {
    const ids = newIds();
    await appendSteps(ids, ledgerLife(ids).slice(0, 4));
    const kafkaLines: KafkaLogEntry[] = [];
    // Port 1 on the loopback: nothing listens, connections are refused at once.
    const kafka = createKafka({
      clientId: 'ledger-integration-test-down',
      brokers: ['127.0.0.1:1'],
      connectionTimeoutMs: 200,
      retry: { retries: 1, initialRetryTime: 50, maxRetryTime: 100 },
      log: (entry) => kafkaLines.push(entry),
    });
    const logger = recordingLogger();
    const publisher = new IntegrationPublisher(store, readModel, kafka, `kafka-test-${randomUUID()}`, {
      logger,
      initialRetryDelayMs: 100,
      maxRetryDelayMs: 200,
      producer: { retry: { retries: 1, initialRetryTime: 50, maxRetryTime: 100 } },
    });
    publisher.start();
    try {
      await waitFor('three failed attempts', async () => (logger.lines.filter((line) => line.startsWith('error')).length >= 3 ? true : undefined));
    } finally {
      const stopping = Date.now();
      await publisher.stop();
      expect(Date.now() - stopping).toBeLessThan(3000);
    }
    const errors = logger.lines.filter((line) => line.startsWith('error'));
    expect(errors[0]).toMatch(/publishing to Kafka interrupted, resuming from the checkpoint in 100 ms: .*Connection/);
    expect(errors[1]).toMatch(/in 200 ms/);
    expect(await publisher.checkpoint()).toBeNull();
    expect(kafkaLines.some((entry) => entry.level === 'error')).toBe(true);
  });
});
