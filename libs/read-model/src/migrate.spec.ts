import { appendFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { workerDatabaseUrl } from '@ledger/test-support';
import {
  MigrationChecksumMismatchError,
  migrateReadModel,
  migrationChecksum,
  READ_MODEL_MIGRATIONS_DIR,
  readMigrations,
} from './migrate';
import { createReadModelClient } from './prisma-client';

// Each test migrates schemas of its own (never `public`, which other suites of this worker use).

const SCHEMAS = ['rm_migrate_attempt_errors', 'rm_migrate_twice', 'rm_migrate_checksum', 'rm_migrate_race', 'rm_migrate_race_existing', 'rm_migrate_a', 'rm_migrate_b', 'rm_migrate_default'];

let url: string;
let pool: Pool;
let shipped: string[];

beforeAll(async () => {
  url = await workerDatabaseUrl();
  pool = new Pool({ connectionString: url, max: 4 });
  await dropSchemas();
  shipped = (await readMigrations()).map((m) => m.name);
});

afterAll(async () => {
  await dropSchemas();
  await pool?.end();
});

async function dropSchemas(): Promise<void> {
  for (const schema of SCHEMAS) await pool.query(`drop schema if exists ${schema} cascade`);
}

async function tablesOf(schema: string): Promise<string[]> {
  const result = await pool.query<{ table_name: string }>(
    `select table_name from information_schema.tables where table_schema = $1 order by table_name`,
    [schema],
  );
  return result.rows.map((row) => row.table_name);
}

async function recorded(schema: string): Promise<{ name: string; checksum: string }[]> {
  const result = await pool.query<{ name: string; checksum: string }>(
    `select name, checksum from ${schema}._ledger_migrations order by name`,
  );
  return result.rows;
}

it('ships the read-model migration in Prisma folder layout', async () => {
  expect(shipped).toContain('20261122000000_read_models');
  expect(shipped.every((name) => /^\d{14}_\w+$/.test(name))).toBe(true);
});

it('applies every migration once; a second run is a no-op', async () => {
  const first = await migrateReadModel(pool, { schema: 'rm_migrate_twice' });
  expect(first).toEqual({ schema: 'rm_migrate_twice', applied: shipped, unknown: [] });
  const tables = await tablesOf('rm_migrate_twice');
  expect(tables).toEqual(
    [
      '_ledger_migrations',
      'api_keys',
      'cards',
      'event_subscriptions',
      'feed_events',
      'funding_sources',
      'idempotency_keys',
      'programs',
      'projector_checkpoints',
      'rate_limit_windows',
      'transaction_counts',
      'transactions',
      'webhook_attempts',
      'webhook_messages',
    ].sort(),
  );
  const records = await recorded('rm_migrate_twice');

  const second = await migrateReadModel(pool, { schema: 'rm_migrate_twice' });
  expect(second).toEqual({ schema: 'rm_migrate_twice', applied: [], unknown: [] });
  expect(await tablesOf('rm_migrate_twice')).toEqual(tables);
  expect(await recorded('rm_migrate_twice')).toEqual(records);
  const migrations = await readMigrations();
  expect(records).toEqual(migrations.map((m) => ({ name: m.name, checksum: migrationChecksum(m.sql) })));
  expect(records[0].checksum).toMatch(/^[0-9a-f]{64}$/);
});

describe('with a migrations folder of its own', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'read-model-migrations-'));
    await cp(READ_MODEL_MIGRATIONS_DIR, dir, { recursive: true });
  });

  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('turns the errno, address and port older webhook attempts recorded into their class, and admits nothing else after', async () => {
    const schema = 'rm_migrate_attempt_errors';
    const classes = '20261126000000_webhook_attempt_failure_classes';
    // The database as it was before that migration (and any after it).
    const fromThere = shipped.filter((name) => name >= classes);
    for (const name of fromThere) await rm(path.join(dir, name), { recursive: true });
    await migrateReadModel(pool, { schema, migrationsDir: dir });
    const older: [number, number | null, string | null][] = [
      [1, null, 'ECONNREFUSED: connect ECONNREFUSED 10.0.0.5:5432'],
      [2, null, 'timed out after 15000 ms'],
      [3, null, 'UND_ERR_SOCKET: other side closed'],
      [4, 500, null],
      [5, 302, null],
      [6, 200, null],
    ];
    for (const [attempt, status, error] of older) {
      await pool.query(
        `insert into ${schema}.webhook_attempts (message_id, attempt, subscription_token, at, url, response_status, error, duration_ms)
         values ('6a1b2c3d-4e5f-5a6b-8c7d-9e0f1a2b3c4d', $1, '5c2d7e1f-3a4b-4c5d-9e6f-7a8b9c0d1e2f', now(), 'http://10.0.0.5:5432/', $2, $3, 1)`,
        [attempt, status, error],
      );
    }
    for (const name of fromThere) await cp(path.join(READ_MODEL_MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
    expect((await migrateReadModel(pool, { schema, migrationsDir: dir })).applied).toEqual(fromThere);
    const rows = await pool.query(`select attempt, response_status, error from ${schema}.webhook_attempts order by attempt`);
    expect(rows.rows.map((row) => [row.attempt, row.response_status, row.error])).toEqual([
      [1, null, 'connection_failed'],
      [2, null, 'timeout'],
      [3, null, 'connection_failed'],
      [4, 500, 'http_status'],
      [5, 302, 'http_status'],
      [6, 200, null],
    ]);
    // The attempt token migration, also after this one, gives each older attempt a token of its own.
    const tokens = await pool.query(`select count(distinct token)::int as distinct_tokens, count(*)::int as attempts from ${schema}.webhook_attempts where token is not null`);
    expect(tokens.rows[0]).toEqual({ distinct_tokens: 6, attempts: 6 });
    await expect(pool.query(`update ${schema}.webhook_attempts set error = 'ECONNREFUSED 127.0.0.1:6379' where attempt = 1`)).rejects.toThrow(/webhook_attempts_error_class/);
  });

  it('refuses, applying nothing, when an applied migration was edited; applies new ones in order', async () => {
    const schema = 'rm_migrate_checksum';
    await migrateReadModel(pool, { schema, migrationsDir: dir });

    const later = '20991231000000_add_card_note';
    await mkdir(path.join(dir, later));
    await writeFile(path.join(dir, later, 'migration.sql'), 'ALTER TABLE "cards" ADD COLUMN "note" TEXT;\n');
    const edited = path.join(dir, shipped[0], 'migration.sql');
    await appendFile(edited, '\nALTER TABLE "cards" ADD COLUMN "sneaky" TEXT;\n');

    const refused = migrateReadModel(pool, { schema, migrationsDir: dir });
    await expect(refused).rejects.toBeInstanceOf(MigrationChecksumMismatchError);
    await expect(refused).rejects.toThrow(shipped[0]);
    expect((await recorded(schema)).map((r) => r.name)).toEqual(shipped);
    const columns = await pool.query(
      `select column_name from information_schema.columns where table_schema = $1 and table_name = 'cards' and column_name in ('note', 'sneaky')`,
      [schema],
    );
    expect(columns.rows).toEqual([]);

    // Putting the applied file back lets the new migration through.
    await cp(path.join(READ_MODEL_MIGRATIONS_DIR, shipped[0], 'migration.sql'), edited);
    const result = await migrateReadModel(pool, { schema, migrationsDir: dir });
    expect(result.applied).toEqual([later]);
    expect((await recorded(schema)).map((r) => r.name)).toEqual([...shipped, later]);

    // Code older than the database (a migration it does not know) still starts, and says so.
    expect(await migrateReadModel(pool, { schema })).toEqual({ schema, applied: [], unknown: [later] });
  });

  it('rolls back a failing migration and records nothing for it', async () => {
    const schema = 'rm_migrate_checksum';
    await pool.query(`drop schema if exists ${schema} cascade`);
    const broken = '20991231000000_broken';
    await mkdir(path.join(dir, broken));
    await writeFile(
      path.join(dir, broken, 'migration.sql'),
      'CREATE TABLE "half_done" ("id" INT);\nALTER TABLE "no_such_table" ADD COLUMN "x" INT;\n',
    );

    await expect(migrateReadModel(pool, { schema, migrationsDir: dir })).rejects.toThrow(broken);
    expect((await recorded(schema)).map((r) => r.name)).toEqual(shipped);
    expect(await tablesOf(schema)).not.toContain('half_done');
  });
});

it.each([
  ['a schema that does not exist yet', 'rm_migrate_race'],
  ['an existing empty schema', 'rm_migrate_race_existing'],
])('lets processes that start together migrate %s at once', async (_, schema) => {
  if (schema === 'rm_migrate_race_existing') await pool.query(`create schema ${schema}`);
  const pools = [new Pool({ connectionString: url, max: 3 }), new Pool({ connectionString: url, max: 3 })];
  try {
    const results = await Promise.all([0, 1, 0, 1, 0, 1].map((n) => migrateReadModel(pools[n], { schema })));
    expect(results.flatMap((r) => r.applied)).toEqual(shipped);
    expect((await recorded(schema)).map((r) => r.name)).toEqual(shipped);
    expect(await tablesOf(schema)).toContain('cards');
  } finally {
    await Promise.all(pools.map((p) => p.end()));
  }
});

it('gives each schema its own tables, and the Prisma client reads the schema it was given', async () => {
  await migrateReadModel(pool, { schema: 'rm_migrate_a' });
  await migrateReadModel(pool, { schema: 'rm_migrate_b' });
  expect(await tablesOf('rm_migrate_a')).toEqual(await tablesOf('rm_migrate_b'));

  const a = createReadModelClient(pool, { schema: 'rm_migrate_a' });
  const b = createReadModelClient(pool, { schema: 'rm_migrate_b' });
  try {
    const now = new Date();
    await a.projectorCheckpoint.create({ data: { name: 'only-in-a', commitPosition: 1n, preparePosition: 1n, updated: now } });
    expect(await a.projectorCheckpoint.count()).toBe(1);
    expect(await b.projectorCheckpoint.count()).toBe(0);
    const inA = await pool.query('select name from rm_migrate_a.projector_checkpoints');
    expect(inA.rows).toEqual([{ name: 'only-in-a' }]);
  } finally {
    await a.$disconnect();
    await b.$disconnect();
  }
});

it("migrates the connection's current schema when none is given", async () => {
  await pool.query('create schema rm_migrate_default');
  const scoped = new Pool({ connectionString: url, max: 1, options: '-c search_path=rm_migrate_default' });
  try {
    const result = await migrateReadModel(scoped);
    expect(result).toEqual({ schema: 'rm_migrate_default', applied: shipped, unknown: [] });
    expect(await tablesOf('rm_migrate_default')).toContain('cards');
    // The connection went back to the pool with its own search_path untouched.
    expect((await scoped.query('show search_path')).rows).toEqual([{ search_path: 'rm_migrate_default' }]);
  } finally {
    await scoped.end();
  }
});
