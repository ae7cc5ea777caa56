import { READ_MODEL_TABLES, type ColumnDescription, type ColumnType, type TableDescription } from '@ledger/read-model';
import { preparedSql, type PreparedSql, type SqlText } from '@ledger/event-store';
import { jsonParameterChunks, type ProcessorSql } from '@ledger/runtime';
import type { ProjectionRows, RowOf, RowSet } from './projection-rows';

/** What the projector needs of a table's description: its name, key and columns. */
type WrittenTable<Row> = Pick<TableDescription<Row>, 'table' | 'primaryKey' | 'columns'>;

/**
 * The table behind each of {@link ProjectionRows}, from schema.prisma (generated, see
 * `READ_MODEL_TABLES`): a column added to a model is written by the projector, and a row type that
 * lacks it fails to compile, here or where the projection builds the row. Every column is written
 * but those a projection leaves to their defaults.
 */
const PROJECTED: { readonly [Name in keyof ProjectionRows]: WrittenTable<RowOf<ProjectionRows[Name]>> } = {
  programs: READ_MODEL_TABLES.Program,
  apiKeys: READ_MODEL_TABLES.ApiKey,
  fundingSources: READ_MODEL_TABLES.FundingSource,
  cards: READ_MODEL_TABLES.Card,
  transactions: leftToDefaults(READ_MODEL_TABLES.Transaction, ['acquirerFee']),
  transactionCounts: READ_MODEL_TABLES.TransactionCount,
  eventSubscriptions: READ_MODEL_TABLES.EventSubscription,
};

/** {@link PROJECTED}'s entries, each table described over rows of its own type. */
const projected = Object.entries(PROJECTED) as [keyof ProjectionRows, WrittenTable<Record<string, unknown>>][];

/** The projected tables' names with the column of their key, the order replays compare rows in. */
export const PROJECTED_TABLES: Readonly<Record<string, string>> = Object.fromEntries(
  projected.map(([, description]) => [description.table, description.columns[keyOf(description)].column]),
);

/** The SQL the projector runs: raw, parameterised statements on the batch's transaction, as the subscription processor hands it over. */
export type SqlClient = ProcessorSql;

/** A statement to execute, its parameters already encoded. */
export interface SqlStatement {
  readonly sql: SqlText;
  readonly values: readonly unknown[];
}

/**
 * One projected table's three statements, qualified with the schema when one is given:
 *
 * - load: the rows of the given keys in one query, one primary-key probe per key (the lateral
 *   `limit 1` keeps the planner from scanning a table it has no statistics for yet, as in a replay
 *   into a fresh schema), answered under the spelling of the key the events used;
 * - upsert: many rows in one `insert ... select ... from jsonb_array_elements($1) on conflict (key)
 *   do update`, each row a JSON array of its column values (every column but the key is set, so the
 *   stored row becomes exactly the in-memory row);
 * - delete: by key.
 */
export class ProjectedTable<Row> {
  private readonly fields: readonly (keyof Row & string)[];
  private readonly types: readonly ColumnType[];
  private readonly loadSql: PreparedSql;
  private readonly upsertSql: PreparedSql;
  private readonly deleteSql: PreparedSql;

  constructor(description: WrittenTable<Row>, schema?: string) {
    const table = schema ? `${quote(schema)}.${quote(description.table)}` : quote(description.table);
    const entries = Object.entries(description.columns) as [keyof Row & string, ColumnDescription][];
    this.fields = entries.map(([field]) => field);
    this.types = entries.map(([, { type }]) => type);
    const columns = entries.map(([, { column }]) => quote(column));
    const key = description.columns[keyOf(description)];
    const keyColumn = quote(key.column);
    this.loadSql = preparedSql(
      `select k.key as "__key", ${columns.map((column, i) => `t.${column} as c${i}`).join(', ')} ` +
      `from unnest($1::text[]) as k(key) cross join lateral (select * from ${table} where ${keyColumn} = k.key::${key.type} limit 1) as t`,
    );
    this.upsertSql = preparedSql(
      `insert into ${table} (${columns.join(', ')}) ` +
      `select ${this.types.map((type, i) => fromJson(`r.value`, i, type)).join(', ')} from jsonb_array_elements($1::jsonb) as r ` +
      `on conflict (${keyColumn}) do update set ${columns.filter((column) => column !== keyColumn).map((column) => `${column} = excluded.${column}`).join(', ')}`,
    );
    this.deleteSql = preparedSql(`delete from ${table} where ${keyColumn} = any($1::${key.type}[])`);
  }

  /** Fills the row set's needed keys from the table (`null` for a key with no row). */
  async load(sql: SqlClient, rows: RowSet<Row>): Promise<void> {
    const keys = rows.keysToLoad();
    if (keys.length === 0) return;
    const found = await sql.query<Record<string, unknown>>(this.loadSql, [keys]);
    const byKey = new Map<string, Row>();
    for (const stored of found) {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < this.fields.length; i++) {
        const value = stored[`c${i}`];
        // Prisma answers bigint columns as bigint, node-postgres as text.
        row[this.fields[i]] = this.types[i] === 'bigint' && value !== null && typeof value !== 'bigint' ? BigInt(value as string) : value;
      }
      byKey.set(stored.__key as string, row as Row);
    }
    for (const key of keys) rows.loaded(key, byKey.get(key) ?? null);
  }

  /**
   * The statements that write the row set's changes (since the last call) back: a delete, then
   * upserts, each of as many rows as fit one JSON parameter of `JSON_PARAMETER_CHARS`
   * characters (a JSON parameter is not bound by PostgreSQL's limit on parameters). The rows are
   * encoded now.
   */
  writes(rows: RowSet<Row>): SqlStatement[] {
    const { upserts, deletes } = rows.takeChanges();
    const statements: SqlStatement[] = [];
    if (deletes.length > 0) statements.push({ sql: this.deleteSql, values: [deletes] });
    for (const chunk of jsonParameterChunks(upserts, this.encodeRow)) statements.push({ sql: this.upsertSql, values: [chunk] });
    return statements;
  }

  /**
   * A row as the JSON array of its column values the upsert reads: a bigint as a string of its
   * digits (nothing rounds), a timestamp as ISO 8601 with its milliseconds, jsonb and text[] as
   * JSON, everything else as is.
   */
  readonly encodeRow = (row: Row): string => {
    const { fields, types } = this;
    const values: unknown[] = new Array(fields.length);
    let lastTime = NaN;
    let lastIso = '';
    for (let i = 0; i < fields.length; i++) {
      const value: unknown = row[fields[i]];
      if (value === null || value === undefined) values[i] = null;
      else if (types[i] === 'bigint') values[i] = (value as bigint).toString();
      else if (types[i] === 'timestamptz') {
        // created and updated are often the same instant: format it once.
        const time = (value as Date).getTime();
        if (time !== lastTime) {
          lastTime = time;
          lastIso = (value as Date).toISOString();
        }
        values[i] = lastIso;
      } else values[i] = value;
    }
    return JSON.stringify(values);
  };
}

/** Column `i` of a row array `row` (jsonb) as SQL of the column's type; JSON null is SQL null. */
function fromJson(row: string, i: number, type: ColumnType): string {
  switch (type) {
    case 'jsonb':
      return `nullif(${row}->${i}, 'null'::jsonb)`;
    case 'text[]':
      return `case when ${row}->>${i} is null then null else array(select e.value from jsonb_array_elements_text(${row}->${i}) with ordinality as e(value, n) order by e.n) end`;
    default:
      return `(${row}->>${i})::${type}`;
  }
}

/** An SQL identifier (schema, table, column, index) as a quoted name, whatever it holds. */
export function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** The projected tables, by the names of {@link ProjectionRows}. */
export type ProjectedTables = { readonly [Name in keyof ProjectionRows]: ProjectedTable<RowOf<ProjectionRows[Name]>> };

/** Every projected table's statements, qualified with the schema when one is given. */
export function projectedTables(schema?: string): ProjectedTables {
  // One entry per name of PROJECTED, whose type pairs each name with its row type: TypeScript cannot follow that through fromEntries.
  return Object.fromEntries(projected.map(([name, description]) => [name, new ProjectedTable(description, schema)])) as unknown as ProjectedTables;
}

/**
 * The description without the columns a projection leaves to their defaults: they are neither
 * read nor written, so the row type has no field for them.
 */
function leftToDefaults<Row, Left extends keyof Row & string>(description: TableDescription<Row>, left: readonly Left[]): WrittenTable<Omit<Row, Left>> {
  const isLeft = (field: string) => (left as readonly string[]).includes(field);
  if (description.primaryKey.some(isLeft)) throw new Error(`${description.table}: a key column cannot be left to its default`);
  return {
    table: description.table,
    primaryKey: description.primaryKey as Exclude<keyof Row & string, Left>[],
    columns: Object.fromEntries(Object.entries(description.columns).filter(([field]) => !isLeft(field))) as WrittenTable<Omit<Row, Left>>['columns'],
  };
}

/** The field of a table's single-column primary key: every projected table has one, a uuid. */
function keyOf<Row>(description: WrittenTable<Row>): keyof Row & string {
  const [key, ...more] = description.primaryKey;
  if (key === undefined || more.length > 0) throw new Error(`${description.table}: the projector writes tables keyed by one column`);
  return key;
}
