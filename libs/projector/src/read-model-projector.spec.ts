import { Pool } from 'pg';
import { EVENT_SCHEMA_VERSIONS, LedgerEvent } from '@ledger/contracts';
import type { AuthorizationFacts } from '@ledger/domain';
import { comparePositions, type EventStore, type GlobalPosition, type RecordedEvent } from '@ledger/event-store';
import { createReadModelClient, migrateReadModel, ReadModelClient } from '@ledger/read-model';
import { workerDatabaseUrl } from '@ledger/test-support';
import { PROJECTED_TABLES } from './replay';
import { ReadModelProjector } from './read-model-projector';
import { replayPipeline } from './replay-pipeline';

/**
 * The batch projector on real PostgreSQL, each case in schemas of its own, through Prisma and
 * through node-postgres: a log touching every projected table and column type gives the same rows
 * whether it is applied in one batch, one event per batch or in uneven batches, and applying it
 * again changes nothing.
 */
const run = process.env.LEDGER_TEST_RUN ?? 'single';
const TRANSPORTS = ['prisma', 'pg'] as const;
type Transport = (typeof TRANSPORTS)[number];
const CASES = ['whole', 'single', 'uneven', 'defaults', 'missing', 'conflict', 'wide', 'narrow', 'replayed', 'replay_failed'];
const SCHEMAS = TRANSPORTS.flatMap((transport) => CASES.map((name) => `projector_${transport}_${name}_${run}`));

let pool: Pool;
const clients: ReadModelClient[] = [];
/** project() needs no event store; the subscription is not started here. */
const noStore = {} as EventStore;

beforeAll(async () => {
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 4 });
  for (const name of SCHEMAS) {
    await pool.query(`drop schema if exists "${name}" cascade`);
    await migrateReadModel(pool, { schema: name });
  }
});

afterAll(async () => {
  for (const client of clients) await client.$disconnect();
  for (const name of SCHEMAS) await pool?.query(`drop schema if exists "${name}" cascade`);
  await pool?.end();
});

function projectorFor(transport: Transport) {
  return (schemaName: string, name?: string): ReadModelProjector => {
    const client = createReadModelClient(pool, { schema: schemaName });
    clients.push(client);
    // The read models alone: the derived feed and outbox have their own spec (apps/server/test/derived-outputs).
    return new ReadModelProjector(noStore, client, { schema: schemaName, name, pool: transport === 'pg' ? pool : undefined, eventsFeed: false });
  };
}

async function tables(schemaName: string): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(PROJECTED_TABLES)) {
    result[table] = (await pool.query(`select * from "${schemaName}"."${table}" order by "${key}"`)).rows;
  }
  return result;
}

const ids = {
  program: '10000000-0000-4000-8000-000000000001',
  key: '10000000-0000-4000-8000-000000000002',
  revokedKey: '10000000-0000-4000-8000-000000000003',
  funding: '10000000-0000-4000-8000-000000000004',
  card: '20000000-0000-4000-8000-000000000001',
  lockedCard: '20000000-0000-4000-8000-000000000002',
  settled: '30000000-0000-4000-8000-000000000001',
  declined: '30000000-0000-4000-8000-000000000002',
  returned: '30000000-0000-4000-8000-000000000003',
  voided: '30000000-0000-4000-8000-000000000004',
  subscription: '40000000-0000-4000-8000-000000000001',
  deleted: '40000000-0000-4000-8000-000000000002',
};

/** A log in global order; each stream counts its own versions. */
function history(): RecordedEvent[] {
  const events: RecordedEvent[] = [];
  const versions = new Map<string, number>();
  let at = Date.parse('2026-11-20T10:00:00.000Z');
  const add = (streamId: string, event: LedgerEvent) => {
    const streamVersion = (versions.get(streamId) ?? -1) + 1;
    versions.set(streamId, streamVersion);
    at += 1_234; // distinct milliseconds, so every timestamp column is checked to the millisecond
    const occurredAt = new Date(at).toISOString();
    const n = BigInt(events.length + 1);
    events.push({
      type: event.type,
      schemaVersion: EVENT_SCHEMA_VERSIONS[event.type],
      data: event.data,
      metadata: { eventId: `event-${n}`, correlationId: `c-${n}`, causationId: null, programToken: ids.program, occurredAt },
      streamId,
      streamVersion,
      position: { commit: n * 10n, prepare: n * 10n },
      recordedAt: occurredAt,
    });
  };
  const now = () => new Date(at).toISOString();
  const program = `program-${ids.program}`;
  add(program, { type: 'ProgramCreated', data: { programToken: ids.program, name: 'Projector spec', created: now() } });
  add(program, { type: 'ApiKeyIssued', data: { programToken: ids.program, keyId: ids.key, keyHash: 'a'.repeat(64), created: now() } });
  add(program, { type: 'ApiKeyIssued', data: { programToken: ids.program, keyId: ids.revokedKey, keyHash: 'b'.repeat(64), created: now() } });
  add(program, {
    type: 'FundingSourceAdded',
    data: { programToken: ids.program, fundingToken: ids.funding, type: 'DEPOSITORY_CHECKING', state: 'ENABLED', nickname: 'Main', accountName: 'Spec', lastFour: '6789', isDefault: true, created: now() },
  });
  add(program, {
    type: 'ProgramSettingsChanged',
    // Merchant names with the characters an array literal would need quoted.
    data: { programToken: ids.program, spendLimits: { transaction: 5_000, weekly: 2 ** 40, monthly: Number.MAX_SAFE_INTEGER }, velocityRule: { maxAuthorizations: 5, windowSeconds: 60 }, blockedMerchants: ['Casino, "Royal"', '{braces}', 'back\\slash', ''] },
  });
  // Lithic's account limits alone: the platform limits above are kept.
  add(program, { type: 'ProgramSettingsChanged', data: { programToken: ids.program, accountSpendLimits: { daily: 2 ** 41, lifetime: Number.MAX_SAFE_INTEGER - 1 } } });
  add(program, { type: 'ApiKeyRevoked', data: { programToken: ids.program, keyId: ids.revokedKey } });
  add(program, { type: 'FundingSourceChanged', data: { programToken: ids.program, fundingToken: ids.funding, nickname: 'Renamed' } });
  add(program, { type: 'AuthorizationStreamEnrolled', data: { programToken: ids.program, url: 'https://example.test/asa', timeoutMs: 1000, secretSealed: 'sealed' } });
  // A repeated ProgramCreated renames and keeps the settings.
  add(program, { type: 'ProgramCreated', data: { programToken: ids.program, name: 'Projector spec, renamed', created: now() } });
  add(program, { type: 'ProgramSettingsChanged', data: { programToken: ids.program, state: 'PAUSED', velocityRule: null } });

  const card = (cardToken: string, overrides: Partial<Extract<LedgerEvent, { type: 'CardCreated' }>['data']> = {}) =>
    add(`card-${cardToken}`, {
      type: 'CardCreated',
      data: {
        cardToken,
        programToken: ids.program,
        cardType: 'DIGITAL_WALLET',
        state: 'OPEN',
        memo: 'first',
        spendLimit: 10_000,
        spendLimitDuration: 'MONTHLY',
        fundingToken: ids.funding,
        expMonth: '07',
        expYear: '2029',
        lastFour: cardToken.slice(-4),
        panHash: `hash-${cardToken}`,
        panEncrypted: `pan-${cardToken}`,
        pinHash: 'pin',
        created: now(),
        ...overrides,
      },
    });
  card(ids.card);
  card(ids.lockedCard, { cardType: 'MERCHANT_LOCKED', memo: 'locked', spendLimit: 0, spendLimitDuration: 'TRANSACTION' });
  add(`card-${ids.card}`, { type: 'CardDetailsChanged', data: { cardToken: ids.card, memo: 'second', spendLimit: 25_000, pinHash: 'new pin' } });
  add(`card-${ids.card}`, { type: 'CardPaused', data: { cardToken: ids.card } });

  const facts = (transactionToken: string, cardToken: string, amount: number): AuthorizationFacts => ({
    cardToken,
    programToken: ids.program,
    transactionToken,
    eventToken: `${transactionToken.slice(0, 30)}aaaaaa`,
    amount,
    merchant: { acceptorId: 'acq-1', city: 'Zürich', country: 'CHE', descriptor: 'Café "Ünïcode"', mcc: '5812', state: '' },
    merchantAmount: Math.round(amount * 0.9),
    merchantCurrency: 'CHF',
    authorizationCode: '123456',
    fundingToken: ids.funding,
    at: now(),
  });
  const transaction = (token: string, event: LedgerEvent) => add(`transaction-${token}`, event);
  add(`card-${ids.lockedCard}`, { type: 'CardAuthorizationApproved', data: facts(ids.settled, ids.lockedCard, 1_000) });
  transaction(ids.settled, { type: 'TransactionAuthorized', data: { ...facts(ids.settled, ids.lockedCard, 1_000), result: 'APPROVED' } });
  add(`card-${ids.lockedCard}`, { type: 'CardMerchantLocked', data: { cardToken: ids.lockedCard, merchantKey: 'acq-1', hostname: 'cafe.example' } });
  transaction(ids.declined, { type: 'TransactionAuthorized', data: { ...facts(ids.declined, ids.card, 50), result: 'CARD_PAUSED' } });
  transaction(ids.voided, { type: 'TransactionAuthorized', data: { ...facts(ids.voided, ids.lockedCard, 700), result: 'APPROVED' } });
  transaction(ids.settled, { type: 'TransactionAdvised', data: { transactionToken: ids.settled, eventToken: `${ids.settled.slice(0, 30)}bbbbbb`, amount: 1_200, at: now() } });
  transaction(ids.voided, { type: 'TransactionVoided', data: { transactionToken: ids.voided, eventToken: `${ids.voided.slice(0, 30)}bbbbbb`, amount: 200, at: now() } });
  transaction(ids.settled, { type: 'TransactionCleared', data: { transactionToken: ids.settled, eventToken: `${ids.settled.slice(0, 30)}cccccc`, amount: 1_150, at: now() } });
  transaction(ids.returned, { type: 'TransactionReturned', data: facts(ids.returned, ids.card, 300) });
  transaction(ids.settled, { type: 'TransactionSettled', data: { transactionToken: ids.settled, at: now() } });
  transaction(ids.returned, { type: 'TransactionBounced', data: { transactionToken: ids.returned, at: now(), fundingState: 'DISCONNECTED' } });
  transaction(ids.voided, { type: 'TransactionVoided', data: { transactionToken: ids.voided, eventToken: `${ids.voided.slice(0, 30)}cccccc`, amount: 500, at: now() } });
  add(`card-${ids.card}`, { type: 'CardResumed', data: { cardToken: ids.card } });
  add(`card-${ids.lockedCard}`, { type: 'CardClosed', data: { cardToken: ids.lockedCard, reason: 'REQUESTED' } });

  const subscription = (token: string, event: LedgerEvent) => add(`event-subscription-${token}`, event);
  const created = (token: string) =>
    subscription(token, {
      type: 'EventSubscriptionCreated',
      data: { subscriptionToken: token, programToken: ids.program, url: `https://example.test/${token}`, description: '', eventTypes: ['card.created'], disabled: false, secretSealed: 'secret-1', created: now() },
    });
  created(ids.subscription);
  created(ids.deleted);
  subscription(ids.subscription, { type: 'EventSubscriptionUpdated', data: { subscriptionToken: ids.subscription, programToken: ids.program, eventTypes: [], description: 'all of them' } });
  subscription(ids.deleted, { type: 'EventSubscriptionMarkedFailing', data: { subscriptionToken: ids.deleted, programToken: ids.program, messageId: 'm-1', at: now() } });
  subscription(ids.subscription, { type: 'EventSubscriptionSecretRotated', data: { subscriptionToken: ids.subscription, programToken: ids.program, secretSealed: 'secret-2', at: now() } });
  subscription(ids.deleted, { type: 'EventSubscriptionDeleted', data: { subscriptionToken: ids.deleted, programToken: ids.program, at: now() } });
  // Events for a subscription whose row is gone change nothing.
  subscription(ids.deleted, { type: 'EventSubscriptionRecovered', data: { subscriptionToken: ids.deleted, programToken: ids.program, messageId: 'm-2', at: now() } });
  subscription(ids.subscription, { type: 'EventSubscriptionMarkedFailing', data: { subscriptionToken: ids.subscription, programToken: ids.program, messageId: 'm-3', at: now() } });
  subscription(ids.subscription, { type: 'EventSubscriptionUpdated', data: { subscriptionToken: ids.subscription, programToken: ids.program, url: 'https://example.test/moved', disabled: true } });
  return events;
}

/** The log with `count` more approved authorizations on the open card, each a transaction of its own. */
function withManyTransactions(events: readonly RecordedEvent[], count: number): RecordedEvent[] {
  const authorized = events.find((event) => event.type === 'TransactionAuthorized') as RecordedEvent;
  const last = events[events.length - 1].position.commit;
  const more = Array.from({ length: count }, (_, i): RecordedEvent => {
    const token = `50000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const n = last + BigInt(i + 1) * 10n;
    return {
      ...authorized,
      data: { ...(authorized.data as object), transactionToken: token, cardToken: ids.card, amount: 100 + i },
      metadata: { ...authorized.metadata, eventId: `many-${i}` },
      streamId: `transaction-${token}`,
      streamVersion: 0,
      position: { commit: n, prepare: n },
    };
  });
  return [...events, ...more];
}

async function projectInBatches(target: ReadModelProjector, events: readonly RecordedEvent[], sizes: readonly number[]): Promise<void> {
  let start = 0;
  for (let i = 0; start < events.length; i++) {
    const size = sizes[i % sizes.length];
    await target.project(events.slice(start, start + size));
    start += size;
  }
}

describe.each(TRANSPORTS)('through %s', (transport) => {
  const schema = (name: string) => `projector_${transport}_${name}_${run}`;
  const projector = projectorFor(transport);

  it('gives the same rows for one batch, one event per batch and uneven batches, and the expected ones', async () => {
    const events = history();
    await projector(schema('whole')).project(events);
    await projectInBatches(projector(schema('single')), events, [1]);
    await projectInBatches(projector(schema('uneven')), events, [3, 7, 2, 11]);
    const whole = await tables(schema('whole'));
    expect(await tables(schema('single'))).toEqual(whole);
    expect(await tables(schema('uneven'))).toEqual(whole);

    expect(whole.programs).toEqual([
      {
        token: ids.program,
        name: 'Projector spec, renamed',
        created: expect.any(Date),
        state: 'PAUSED',
        spend_limit_transaction: '5000',
        spend_limit_weekly: String(2 ** 40),
        spend_limit_monthly: String(Number.MAX_SAFE_INTEGER),
        spend_limit_daily: String(2 ** 41),
        spend_limit_lifetime: String(Number.MAX_SAFE_INTEGER - 1),
        velocity_max_authorizations: null,
        velocity_window_seconds: null,
        blocked_merchants: ['Casino, "Royal"', '{braces}', 'back\\slash', ''],
      },
    ]);
    expect(whole.api_keys.map((row) => (row as { revoked: boolean }).revoked)).toEqual([false, true]);
    expect(whole.funding_sources).toEqual([expect.objectContaining({ token: ids.funding, nickname: 'Renamed', state: 'ENABLED', is_default: true })]);
    const occurred = (type: string, token: string) =>
      new Date(events.filter((event) => event.type === type && JSON.stringify(event.data).includes(token)).slice(-1)[0].metadata.occurredAt);
    expect(whole.cards).toEqual([
      expect.objectContaining({ token: ids.card, state: 'OPEN', memo: 'second', spend_limit: '25000', hostname: '', updated: occurred('CardResumed', ids.card) }),
      expect.objectContaining({ token: ids.lockedCard, state: 'CLOSED', memo: 'locked', hostname: 'cafe.example', updated: occurred('CardClosed', ids.lockedCard) }),
    ]);
    const transactions = Object.fromEntries(whole.transactions.map((row) => [(row as { token: string }).token, row as Record<string, unknown>]));
    expect(transactions[ids.settled]).toMatchObject({ status: 'SETTLED', amount: '1150', settled_amount: '1150', version: 3, acquirer_fee: '0' });
    expect((transactions[ids.settled].events as { type: string }[]).map((entry) => entry.type)).toEqual(['AUTHORIZATION', 'AUTHORIZATION_ADVICE', 'CLEARING']);
    expect(transactions[ids.declined]).toMatchObject({ status: 'DECLINED', result: 'CARD_PAUSED', merchant_descriptor: 'Café "Ünïcode"', version: 0 });
    expect(transactions[ids.voided]).toMatchObject({ status: 'VOIDED', amount: '0', version: 2 });
    expect(transactions[ids.returned]).toMatchObject({ status: 'BOUNCED', amount: '-300', version: 1 });
    expect(whole.event_subscriptions).toEqual([
      expect.objectContaining({
        token: ids.subscription,
        url: 'https://example.test/moved',
        description: 'all of them',
        event_types: [],
        disabled: true,
        failing: true,
        secret_sealed: 'secret-2',
        updated: occurred('EventSubscriptionUpdated', ids.subscription),
      }),
    ]);
  });

  it('writes a batch whose rows exceed one statement parameter in several statements, every row once', async () => {
    const events = withManyTransactions(history(), 400);
    await projector(schema('wide')).project(events);
    await projectInBatches(projector(schema('narrow')), events, [37]);
    const wide = await tables(schema('wide'));
    expect(wide.transactions).toHaveLength(404);
    // 400 rows of about 700 characters: several 48 KiB parameters in the one batch, one in each of 37 events.
    expect(JSON.stringify(wide.transactions).length).toBeGreaterThan(3 * 48 * 1024);
    expect(await tables(schema('narrow'))).toEqual(wide);
  });

  it('applying the same events again, in one batch or in others, changes no row', async () => {
    const events = history();
    const before = await tables(schema('whole'));
    // Fresh names have no checkpoint, so every event is applied once more on top.
    await projector(schema('whole'), 'again-whole').project(events);
    await projectInBatches(projector(schema('whole'), 'again-uneven'), events, [5, 1, 9]);
    expect(await tables(schema('whole'))).toEqual(before);
  });

  it('a batch at or below the checkpoint is skipped, and the checkpoint advances with each batch', async () => {
    const events = history();
    const target = projector(schema('uneven'));
    const before = await tables(schema('uneven'));
    await target.project(events.slice(0, 10));
    expect(await tables(schema('uneven'))).toEqual(before);
    const { rows } = await pool.query(`select commit_position::text as commit from "${schema('uneven')}".projector_checkpoints where name = 'read-models'`);
    expect(rows).toEqual([{ commit: String(events[events.length - 1].position.commit) }]);
  });

  it('starts a new program with the table defaults for its settings', async () => {
    const events = history().slice(0, 1);
    await projector(schema('defaults')).project(events);
    const { programToken, name, created } = events[0].data as { programToken: string; name: string; created: string };
    const other = '10000000-0000-4000-8000-0000000000ff';
    await pool.query(`insert into "${schema('defaults')}".programs (token, name, created) values ($1, $2, $3)`, [other, name, created]);
    const { rows } = await pool.query(`select * from "${schema('defaults')}".programs order by token`);
    expect(rows).toHaveLength(2);
    expect({ ...rows[0], token: other }).toEqual(rows[1]);
    expect(rows[0].token).toBe(programToken);
  });

  it('fails the whole batch, writing nothing, when an event changes a row that does not exist', async () => {
    const events = history();
    const cardEvents = events.filter((event) => event.streamId === `card-${ids.card}` && event.type !== 'CardCreated');
    const target = projector(schema('missing'));
    await expect(target.project([...events.slice(0, 4), ...cardEvents])).rejects.toThrow(/CardDetailsChanged updates cards row/);
    expect(await tables(schema('missing'))).toEqual(Object.fromEntries(Object.keys(PROJECTED_TABLES).map((table) => [table, []])));
    const { rows } = await pool.query(`select * from "${schema('missing')}".projector_checkpoints`);
    expect(rows).toEqual([]);
  });

  it('fails the whole batch, writing nothing, when PostgreSQL refuses a write after earlier writes of the batch went through', async () => {
    const events = history();
    const created = events.find((event) => event.type === 'CardCreated') as RecordedEvent;
    const approved = events.find((event) => event.type === 'CardAuthorizationApproved') as RecordedEvent;
    const at = (event: RecordedEvent, n: number): RecordedEvent => ({ ...event, position: { commit: BigInt(n), prepare: BigInt(n) } });
    // A second card with the first one's PAN hash, far enough into the batch to be written after
    // the first card's rows were sent: the unique index refuses it, and the batch rolls back whole.
    const twin = { ...created, data: { ...(created.data as object), cardToken: '20000000-0000-4000-8000-0000000000ff' } };
    const batch = [at(created, 1), ...Array.from({ length: 1200 }, (_, i) => at(approved, i + 2)), at(twin, 1300)];
    await expect(projector(schema('conflict')).project(batch)).rejects.toThrow(/pan_hash/);
    expect(await tables(schema('conflict'))).toEqual(Object.fromEntries(Object.keys(PROJECTED_TABLES).map((table) => [table, []])));
    expect((await pool.query(`select * from "${schema('conflict')}".projector_checkpoints`)).rows).toEqual([]);
  });
});

/** Reads the events as the replay reads the log: the batch after a position, of the next size in turn. */
function readerOf(events: readonly RecordedEvent[], sizes: readonly number[]): (after: GlobalPosition | null) => Promise<RecordedEvent[]> {
  let calls = 0;
  return async (after) => {
    const size = sizes[calls++ % sizes.length];
    return events.filter((event) => after === null || comparePositions(event.position, after) > 0).slice(0, size);
  };
}

describe('the replay pipeline (derive, carried rows, one writer)', () => {
  const schema = (name: string) => `projector_pg_${name}_${run}`;
  const replay = async (events: readonly RecordedEvent[], sizes: readonly number[], tablesStartEmpty: boolean) => {
    await pool.query(`drop schema if exists "${schema('replayed')}" cascade`);
    await migrateReadModel(pool, { schema: schema('replayed') });
    const target = projectorFor('pg')(schema('replayed'));
    const replayed = await replayPipeline(target, readerOf(events, sizes), pool, { checkpointTable: `"${schema('replayed')}".projector_checkpoints`, tablesStartEmpty });
    expect(replayed).toBe(events.length);
    return tables(schema('replayed'));
  };

  it('writes the rows the live pass writes, however the log is cut, with rows of batches not yet committed carried to the next', async () => {
    const events = withManyTransactions(history(), 400);
    await pool.query(`drop schema if exists "${schema('wide')}" cascade`);
    await migrateReadModel(pool, { schema: schema('wide') });
    await projectorFor('pg')(schema('wide')).project(events);
    const live = await tables(schema('wide'));
    expect(live.transactions).toHaveLength(404);
    // One event a batch: every row an event reads was written by the batch just before, still being written.
    for (const sizes of [[1], [3, 7, 2, 11], [37], [5000]]) {
      expect(await replay(events, sizes, true)).toEqual(live);
    }
    // Without the written-keys filter every row is read from the table or carried: the same rows.
    expect(await replay(events, [3, 7, 2, 11], false)).toEqual(live);
    const { rows } = await pool.query(`select commit_position::text as commit from "${schema('replayed')}".projector_checkpoints where name = 'read-models'`);
    expect(rows).toEqual([{ commit: String(events[events.length - 1].position.commit) }]);
  });

  it('fails when PostgreSQL refuses a write, and writes nothing of the refused batch', async () => {
    const events = history();
    const created = events.find((event) => event.type === 'CardCreated') as RecordedEvent;
    const twin = { ...created, data: { ...(created.data as object), cardToken: '20000000-0000-4000-8000-0000000000ff' }, position: { commit: 10_000n, prepare: 10_000n } };
    await pool.query(`drop schema if exists "${schema('replay_failed')}" cascade`);
    await migrateReadModel(pool, { schema: schema('replay_failed') });
    const target = projectorFor('pg')(schema('replay_failed'));
    const read = readerOf([...events, twin], [events.length, 1]);
    await expect(replayPipeline(target, read, pool, { checkpointTable: `"${schema('replay_failed')}".projector_checkpoints`, tablesStartEmpty: true })).rejects.toThrow(/pan_hash/);
    const cards = await pool.query(`select token from "${schema('replay_failed')}".cards order by token`);
    expect(cards.rows.map((row) => row.token)).toEqual([ids.card, ids.lockedCard]);
    const { rows } = await pool.query(`select commit_position::text as commit from "${schema('replay_failed')}".projector_checkpoints`);
    expect(rows).toEqual([{ commit: String(events[events.length - 1].position.commit) }]);
  });
});
