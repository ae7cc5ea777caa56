import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { escapeIdentifier, type Pool, type PoolClient } from 'pg';

/**
 * The read-model migrations: plain SQL in Prisma's folder layout
 * (`<yyyyMMddHHmmss>_<name>/migration.sql`). `prisma migrate` is never run (its schema engine binary
 * cannot be downloaded here); this module applies them. The folder sits next to `src/`, and the build
 * copies it next to the compiled code, so the same path works from `src/` and from `dist/`.
 */
export const READ_MODEL_MIGRATIONS_DIR = path.join(__dirname, '..', 'prisma', 'migrations');

/** Bookkeeping table, one per schema the migrations were applied to. */
export const MIGRATIONS_TABLE = '_ledger_migrations';

const MIGRATION_FOLDER = /^\d{14}_[A-Za-z0-9_]+$/;
const LOCK_KEY = `hashtextextended('ledger:read-model:migrate', 0)`;

export interface MigrateReadModelOptions {
  /**
   * Schema to create (if missing) and migrate. Default: the connection's current schema (`public`).
   * Migrations run with `search_path` set to this schema only, so they must not name a schema.
   */
  schema?: string;
  /** Where the migration folders are; defaults to {@link READ_MODEL_MIGRATIONS_DIR}. */
  migrationsDir?: string;
}

export interface MigrateReadModelResult {
  schema: string;
  /** Names of the migrations this call applied, in order (empty when already up to date). */
  applied: string[];
  /** Migrations recorded in the database with no folder on disk (code older than the database). */
  unknown: string[];
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationChecksumMismatchError extends Error {
  constructor(
    readonly migration: string,
    readonly schema: string,
    readonly recorded: string,
    readonly actual: string,
  ) {
    super(
      `read-model migration ${migration} was changed after it was applied to schema "${schema}" ` +
        `(recorded sha-256 ${recorded}, file has ${actual}); add a new migration instead of editing an applied one`,
    );
    this.name = 'MigrationChecksumMismatchError';
  }
}

/** sha-256 (hex) of a migration's SQL, with line endings normalised so a CRLF checkout agrees. */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');
}

/** The migration folders of `dir`, oldest first. */
export async function readMigrations(dir: string = READ_MODEL_MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory() && MIGRATION_FOLDER.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: migrationChecksum(sql) };
    }),
  );
}

/**
 * Applies every migration not yet recorded in `<schema>._ledger_migrations`, oldest first, each in its
 * own transaction. The whole run holds a session advisory lock, so processes starting together apply
 * each migration once (the others wait, then find nothing to do). Throws, applying nothing, when an
 * applied migration's file no longer matches its recorded checksum.
 */
export async function migrateReadModel(
  pool: Pool,
  options: MigrateReadModelOptions = {},
): Promise<MigrateReadModelResult> {
  const migrations = await readMigrations(options.migrationsDir ?? READ_MODEL_MIGRATIONS_DIR);
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await client.query(`select pg_advisory_lock(${LOCK_KEY})`);
    const result = await migrateLocked(client, migrations, options.schema);
    await client.query(`select pg_advisory_unlock(${LOCK_KEY})`);
    return result;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // After a failure the connection is discarded, not returned: closing it releases the session lock.
    client.release(failure);
  }
}

async function migrateLocked(
  client: PoolClient,
  migrations: Migration[],
  requestedSchema: string | undefined,
): Promise<MigrateReadModelResult> {
  let schema = requestedSchema;
  if (schema === undefined) {
    const current = await client.query<{ schema: string | null }>('select current_schema() as schema');
    schema = current.rows[0]?.schema ?? undefined;
    if (!schema) throw new Error('migrateReadModel: the connection has no current schema; pass options.schema');
  } else {
    await client.query(`create schema if not exists ${escapeIdentifier(schema)}`);
  }
  const table = `${escapeIdentifier(schema)}.${escapeIdentifier(MIGRATIONS_TABLE)}`;
  await client.query(
    `create table if not exists ${table} (
       name text primary key,
       checksum text not null,
       applied_at timestamptz not null default now()
     )`,
  );

  const recorded = new Map(
    (await client.query<{ name: string; checksum: string }>(`select name, checksum from ${table}`)).rows.map(
      (row) => [row.name, row.checksum] as const,
    ),
  );
  for (const migration of migrations) {
    const checksum = recorded.get(migration.name);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new MigrationChecksumMismatchError(migration.name, schema, checksum, migration.checksum);
    }
  }

  const applied: string[] = [];
  for (const migration of migrations) {
    if (recorded.has(migration.name)) continue;
    await client.query('begin');
    try {
      await client.query(`set local search_path to ${escapeIdentifier(schema)}`);
      await client.query(migration.sql);
      await client.query(`insert into ${table} (name, checksum) values ($1, $2)`, [
        migration.name,
        migration.checksum,
      ]);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw new Error(`read-model migration ${migration.name} failed in schema "${schema}": ${String(error)}`, {
        cause: error,
      });
    }
    applied.push(migration.name);
  }

  const known = new Set(migrations.map((migration) => migration.name));
  const unknown = [...recorded.keys()].filter((name) => !known.has(name)).sort();
  return { schema, applied, unknown };
}
