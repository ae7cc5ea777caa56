import { Pool } from 'pg';
import { truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { migrateReadModel } from './migrate';
import { createReadModelClient, Prisma, type PrismaClient } from './prisma-client';
import { READ_MODEL_TABLES } from './read-model-tables';
import type { ColumnType, ColumnValue, TableDescription } from './table-description';

// schema.prisma declares the read-model columns once. `prisma generate` turns it into the client and
// into READ_MODEL_TABLES (the projector's SQL is built from these); the tables themselves are created
// by the SQL migrations. These tests prove the three agree: a fresh schema migrated by the SQL has
// exactly the described tables, columns, types, nullability, defaults, keys and indexes, and every
// model written through Prisma lands in the columns the descriptions name.

const SCHEMA = 'read_model_agreement';
const models = Object.entries(READ_MODEL_TABLES) as [Prisma.ModelName, TableDescription<Record<string, unknown>>][];

let pool: Pool;
let prisma: PrismaClient;

beforeAll(async () => {
  pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 4 });
  await pool.query(`drop schema if exists ${SCHEMA} cascade`);
  await migrateReadModel(pool, { schema: SCHEMA });
  prisma = createReadModelClient(pool, { schema: SCHEMA });
});

afterEach(() => truncateAll(pool, [SCHEMA]));

afterAll(async () => {
  await prisma?.$disconnect();
  await pool?.query(`drop schema if exists ${SCHEMA} cascade`);
  await pool?.end();
});

it('describes exactly the models and scalar fields of the generated client', () => {
  expect(models.map(([model]) => model).sort()).toEqual(Object.values(Prisma.ModelName).sort());
  for (const [model, description] of models) {
    const fields = (Prisma as unknown as Record<string, Record<string, string>>)[`${model}ScalarFieldEnum`];
    expect({ model, fields: Object.keys(description.columns).sort() }).toEqual({ model, fields: Object.values(fields).sort() });
  }
});

/** How PostgreSQL's format_type() spells each column type. */
const POSTGRES_TYPE: Record<ColumnType, string> = {
  uuid: 'uuid',
  text: 'text',
  bigint: 'bigint',
  integer: 'integer',
  boolean: 'boolean',
  timestamptz: 'timestamp(3) with time zone',
  jsonb: 'jsonb',
  'text[]': 'text[]',
};

describe('the SQL migrations create what schema.prisma describes', () => {
  it('has one table per model and no other', async () => {
    const tables = await pool.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = $1 and table_name <> '_ledger_migrations'`,
      [SCHEMA],
    );
    expect(tables.rows.map((row) => row.table_name).sort()).toEqual(models.map(([, description]) => description.table).sort());
  });

  it.each(models)('%s: columns, types, nullability and default values', async (_, description) => {
    const columns = await pool.query<{ column: string; type: string; nullable: boolean; default: string | null }>(
      `select a.attname as column, format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable,
              pg_get_expr(d.adbin, d.adrelid) as default
         from pg_attribute a
         join pg_class t on t.oid = a.attrelid
         join pg_namespace ns on ns.oid = t.relnamespace
         left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where ns.nspname = $1 and t.relname = $2 and a.attnum > 0 and not a.attisdropped`,
      [SCHEMA, description.table],
    );
    // A default's value in its column's type, as node-postgres reads it, is what schema.prisma's @default says.
    const defaults = columns.rows.filter((column) => column.default !== null);
    const [values] = defaults.length === 0 ? [{}] : (await pool.query(`select ${defaults.map((c) => `(${c.default})::${c.type} as "${c.column}"`).join(', ')}`)).rows;
    const actual = columns.rows.map((column) => ({
      column: column.column,
      type: column.type,
      nullable: column.nullable,
      default: column.column in values ? (values as Record<string, ColumnValue>)[column.column] : undefined,
    }));
    const described = Object.values(description.columns).map((column) => ({ ...column, type: POSTGRES_TYPE[column.type] }));
    const byName = (a: { column: string }, b: { column: string }) => a.column.localeCompare(b.column);
    expect(actual.sort(byName)).toEqual(described.sort(byName));
  });

  it.each(models)('%s: primary key, unique constraints and indexes', async (_, description) => {
    const indexes = await pool.query<{ columns: string[]; is_primary: boolean; is_unique: boolean }>(
      `select array(select a.attname from unnest(i.indkey) with ordinality k(attnum, n)
                      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum order by k.n)::text[] as columns,
              i.indisprimary as is_primary, i.indisunique as is_unique
         from pg_index i
         join pg_class t on t.oid = i.indrelid
         join pg_namespace ns on ns.oid = t.relnamespace
        where ns.nspname = $1 and t.relname = $2`,
      [SCHEMA, description.table],
    );
    const columnsOf = (fields: readonly string[]) => fields.map((field) => description.columns[field].column).join(',');
    const actual = (kind: (index: { is_primary: boolean; is_unique: boolean }) => boolean) =>
      indexes.rows
        .filter(kind)
        .map((index) => index.columns.join(','))
        .sort();
    expect(actual((index) => index.is_primary)).toEqual([columnsOf(description.primaryKey)]);
    expect(actual((index) => index.is_unique && !index.is_primary)).toEqual(description.uniques.map(columnsOf).sort());
    expect(actual((index) => !index.is_unique)).toEqual(description.indexes.map(columnsOf).sort());
  });
});

/**
 * A value of the column's type for field number `n`, different from every other field's (a swapped
 * column would show); bigints past 2^53, so that no float is on the way. Null where null is allowed
 * (a check constraint may hold a nullable text column to a few words).
 */
function sampleValue(field: string, n: number, type: ColumnType, nullable: boolean): unknown {
  if (nullable) return null;
  switch (type) {
    case 'uuid':
      return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    case 'text':
      return `${field} value`;
    case 'bigint':
      return 9_007_199_254_740_993n + BigInt(n);
    case 'integer':
      return 1_000 + n;
    case 'boolean':
      return true;
    case 'timestamptz':
      return new Date(Date.UTC(2026, 10, 22, 10, 11, 12, 345) + n * 1_001);
    case 'jsonb':
      return [{ field, n }];
    case 'text[]':
      return [field, 'second'];
  }
}

type Delegate = { create(args: { data: object }): Promise<object>; findMany(): Promise<object[]> };

it.each(models)('%s: a row with every field set, through Prisma, is in the described columns', async (model, description) => {
  const fields = Object.entries(description.columns);
  const data = Object.fromEntries(fields.map(([field, column], n) => [field, sampleValue(field, n, column.type, column.nullable)]));
  const delegate = (prisma as unknown as Record<string, Delegate>)[model[0].toLowerCase() + model.slice(1)];

  expect(await delegate.create({ data })).toEqual(data);
  expect(await delegate.findMany()).toEqual([data]);
  const stored = await pool.query(`select ${fields.map(([field, { column }]) => `"${column}" as "${field}"`).join(', ')} from ${SCHEMA}."${description.table}"`);
  // node-postgres reads bigint as the string of its digits.
  expect(stored.rows).toEqual([Object.fromEntries(Object.entries(data).map(([field, value]) => [field, typeof value === 'bigint' ? value.toString() : value]))]);
});
