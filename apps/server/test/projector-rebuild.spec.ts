import { EventStore, comparePositions } from '@ledger/event-store';
import { ReadModelProjector } from '@ledger/projector';
import { createReadModelClient, migrateReadModel, ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE } from '@ledger/runtime';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The projector is interrupted mid-stream (a failure inside a batch, so that batch's transaction
 * rolls back), resumes from its checkpoint, and ends with read models identical to the live ones
 * and to a rebuild done in one go. Projections are also applied twice to show they are idempotent.
 */
const TABLES = ['programs', 'api_keys', 'funding_sources', 'cards', 'transactions'];
const run = process.env.LEDGER_TEST_RUN ?? 'single';
const schemas = { interrupted: `rebuild_a_${run}`, straight: `rebuild_b_${run}` };

let t: TestLedger;
let store: EventStore;
const clients: ReadModelClient[] = [];

beforeAll(async () => {
  t = await startTestLedger({});
  store = t.ledger.app.get<EventStore>(EVENT_STORE);
  // A small but varied history: programs, cards in every state, every kind of transaction event.
  const card = async (body: object) => (await t.call('POST', '/v1/cards', { body })).body;
  const authorize = async (pan: string, amount: number, descriptor = 'Shop') =>
    (await t.call('POST', '/v1/simulate/authorize', { body: { pan, amount, descriptor } })).body.token;
  await t.createProgram('second');
  const a = await card({ type: 'DIGITAL_WALLET', spend_limit: 5000, spend_limit_duration: 'MONTHLY' });
  const b = await card({ type: 'MERCHANT_LOCKED', memo: 'locked' });
  const c = await card({ type: 'SINGLE_USE' });
  for (let i = 0; i < 6; i++) await authorize(a.pan, 300 + i);
  const toVoid = await authorize(a.pan, 700);
  await t.call('POST', '/v1/simulate/void', { body: { token: toVoid, amount: 200 } });
  const toClear = await authorize(b.pan, 900, 'Locked Shop');
  await t.call('POST', '/v1/simulate/clearing', { body: { token: toClear, amount: 950 } });
  await t.call('POST', '/v1/simulate/settle', { body: {} });
  await authorize(b.pan, 100, 'Elsewhere');
  await authorize(c.pan, 100);
  await authorize(c.pan, 100);
  await t.call('POST', '/v1/simulate/return', { body: { pan: a.pan, amount: 250, descriptor: 'Refund' } });
  await t.call('PATCH', `/v1/cards/${a.token}`, { body: { state: 'PAUSED', memo: 'paused now' } });
  await t.call('PATCH', `/v1/accounts/${(await t.call('GET', '/v1/accounts')).body.data[0].token}`, { body: { blocked_merchants: ['Casino'] } });
  for (const schema of Object.values(schemas)) {
    await t.pool.query(`drop schema if exists "${schema}" cascade`);
    await migrateReadModel(t.pool, { schema });
  }
});

afterAll(async () => {
  for (const client of clients) await client.$disconnect();
  for (const schema of Object.values(schemas)) await t?.pool.query(`drop schema if exists "${schema}" cascade`);
  await t?.stop();
});

async function rows(schema: string, table: string): Promise<unknown[]> {
  const key = table === 'api_keys' ? 'key_id' : 'token';
  return (await t.pool.query(`select * from "${schema}"."${table}" order by ${key}`)).rows;
}

async function rebuild(schema: string, projector: (client: ReadModelClient) => ReadModelProjector): Promise<void> {
  const client = createReadModelClient(t.pool, { schema });
  clients.push(client);
  const instance = projector(client);
  instance.start();
  const head = await store.headPosition();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [checkpoint] = (
      await t.pool.query(`select commit_position, prepare_position from "${schema}".projector_checkpoints where name = 'read-models'`)
    ).rows;
    if (head && checkpoint && comparePositions({ commit: BigInt(checkpoint.commit_position), prepare: BigInt(checkpoint.prepare_position) }, head) >= 0) break;
    if (Date.now() > deadline) throw new Error(`rebuild into ${schema} did not reach the head`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await instance.stop();
}

it('resumes after an interruption mid-batch and ends equal to the live read models and a straight rebuild', async () => {
  let failures = 0;
  await rebuild(schemas.interrupted, (client) => {
    const projector = new ReadModelProjector(store, client, { schema: schemas.interrupted, batchSize: 5 });
    const apply = projector.apply.bind(projector);
    let batches = 0;
    // The processor applies each batch inside its transaction: the third one dies after writing its
    // rows, and the transaction must leave nothing of them behind.
    projector.apply = async (events, batch) => {
      batches++;
      await apply(events, batch);
      if (batches === 3) {
        failures++;
        throw new Error('projector killed mid-batch');
      }
    };
    return projector;
  });
  await rebuild(schemas.straight, (client) => new ReadModelProjector(store, client, { schema: schemas.straight }));
  expect(failures).toBe(1);
  for (const table of TABLES) {
    const live = await rows('public', table);
    expect(live.length).toBeGreaterThan(0);
    expect({ table, rows: await rows(schemas.interrupted, table) }).toEqual({ table, rows: live });
    expect({ table, rows: await rows(schemas.straight, table) }).toEqual({ table, rows: live });
  }
}, 60_000);

it('applies the same events twice without changing a row (projections are idempotent)', async () => {
  const schema = schemas.straight;
  const before = await Promise.all(TABLES.map((table) => rows(schema, table)));
  const client = createReadModelClient(t.pool, { schema });
  clients.push(client);
  // A projector under a fresh name has no checkpoint, so it applies every event once more on top;
  // a second fresh name applies them a third time.
  const events = await store.readAll({ maxCount: 100_000 });
  for (const name of ['again-1', 'again-2']) await new ReadModelProjector(store, client, { schema, name }).project(events);
  expect(await Promise.all(TABLES.map((table) => rows(schema, table)))).toEqual(before);
});
