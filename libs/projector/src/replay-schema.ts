import type { Pool } from 'pg';
import { migrateReadModel } from '@ledger/read-model';
import { quote } from './projections/read-model-tables';

/**
 * Indexes of a schema that back no constraint: the ones that only serve the API's reads (lists by
 * program, by card, by status). Keys, unique constraints and the indexes behind them are left out.
 */
const READ_ONLY_INDEXES = `
  select i.relname as name
    from pg_index x
    join pg_class i on i.oid = x.indexrelid
    join pg_namespace n on n.oid = i.relnamespace
   where n.nspname = $1
     and not x.indisprimary and not x.indisunique
     and not exists (select 1 from pg_constraint c where c.conindid = x.indexrelid)`;

/**
 * A fresh schema for a replay: the read-model tables as migrated, without the indexes that only serve
 * reads. Nothing reads a replay's tables but its own loads and the row-by-row comparison, both by
 * primary key, so keeping those indexes up was work for no reader: about a fifth of PostgreSQL's CPU
 * in a replay (docs/benchmarks.md). Every key and unique constraint stays, so a replay refuses what
 * the live tables would, and its rows are the live rows whatever indexes sit beside them.
 */
export async function createReplaySchema(pool: Pool, schema: string): Promise<void> {
  await pool.query(`drop schema if exists ${quote(schema)} cascade`);
  await migrateReadModel(pool, { schema });
  for (const name of await readOnlyIndexes(pool, schema)) await pool.query(`drop index ${quote(schema)}.${quote(name)}`);
}

/** The names of a schema's indexes that back no constraint (none, in a replay's schema). */
export async function readOnlyIndexes(pool: Pool, schema: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(READ_ONLY_INDEXES, [schema]);
  return rows.map((row) => row.name).sort();
}
