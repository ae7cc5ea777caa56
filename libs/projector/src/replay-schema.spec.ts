import { Pool } from 'pg';
import { migrateReadModel } from '@ledger/read-model';
import { workerDatabaseUrl } from '@ledger/test-support';
import { createReplaySchema, readOnlyIndexes } from './replay-schema';

/** A replay's schema on real PostgreSQL, against the read models as migrated. */
const run = process.env.LEDGER_TEST_RUN ?? 'single';
const MIGRATED = `replay_schema_migrated_${run}`;
const REPLAY = `replay_schema_replay_${run}`;

let pool: Pool;

beforeAll(async () => {
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 2 });
  await pool.query(`drop schema if exists "${MIGRATED}" cascade`);
  await migrateReadModel(pool, { schema: MIGRATED });
  await createReplaySchema(pool, REPLAY);
});

afterAll(async () => {
  for (const schema of [MIGRATED, REPLAY]) await pool?.query(`drop schema if exists "${schema}" cascade`);
  await pool?.end();
});

const tables = async (schema: string) =>
  (await pool.query<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = $1 order by 1`, [schema])).rows.map((row) => row.name);

/** Every constraint of the schema, by table, name and definition. */
const constraints = async (schema: string) =>
  (
    await pool.query<{ table: string; name: string; definition: string }>(
      `select t.relname as table, c.conname as name, pg_get_constraintdef(c.oid) as definition
         from pg_constraint c join pg_class t on t.oid = c.conrelid
        where c.connamespace = $1::regnamespace order by 1, 2`,
      [schema],
    )
  ).rows;

/** The schema's unique indexes (primary keys among them), their definitions with the schema's name left out. */
const uniqueIndexes = async (schema: string) =>
  (await pool.query<{ name: string; definition: string }>(`select indexname as name, indexdef as definition from pg_indexes where schemaname = $1 and indexdef like 'CREATE UNIQUE %' order by 1`, [schema])).rows.map(
    (index) => ({ ...index, definition: index.definition.split(`"${schema}".`).join('').split(`${schema}.`).join('') }),
  );

it('has the tables, constraints and unique indexes of the migrated read models', async () => {
  expect(await tables(REPLAY)).toEqual(await tables(MIGRATED));
  expect(await constraints(REPLAY)).toEqual(await constraints(MIGRATED));
  const unique = await uniqueIndexes(MIGRATED);
  // Beyond the primary keys: a card's PAN hash is unique in a replay as in the live tables.
  expect(unique.map((index) => index.name)).toContain('cards_pan_hash_key');
  expect(await uniqueIndexes(REPLAY)).toEqual(unique);
});

it('has none of the indexes that only serve reads', async () => {
  expect(await readOnlyIndexes(pool, MIGRATED)).toEqual(expect.arrayContaining(['transactions_card_token_created_idx']));
  expect(await readOnlyIndexes(pool, REPLAY)).toEqual([]);
});

it('is made afresh each time, whatever a replay before it left', async () => {
  await pool.query(`create table "${REPLAY}".left_over (id int)`);
  await createReplaySchema(pool, REPLAY);
  expect(await tables(REPLAY)).toEqual(await tables(MIGRATED));
});
