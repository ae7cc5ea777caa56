import type { ApiKey, Card, EventSubscriptionRow, FundingSource, Program, TransactionCount } from '@ledger/read-model';
import type { ProjectedTransactionRow, ProjectionRows, RowSet } from './projection-rows';

/** PostgreSQL types of the projected columns; a row travels as JSON and is cast to these. */
export type SqlType = 'uuid' | 'text' | 'bigint' | 'integer' | 'boolean' | 'timestamptz' | 'jsonb' | 'text[]';

/**
 * Every field of the row type with its column: a field added to the Prisma model (or to
 * `transactionRow`) fails to compile here until it is mapped, so no column is silently dropped.
 */
export type Columns<Row> = { readonly [Field in keyof Row]-?: readonly [column: string, type: SqlType] };

export interface TableSpec<Row> {
  readonly table: string;
  /** The primary-key field; every projected table has a single uuid key. */
  readonly key: keyof Row & string;
  readonly columns: Columns<Row>;
}

export const PROGRAMS: TableSpec<Program> = {
  table: 'programs',
  key: 'token',
  columns: {
    token: ['token', 'uuid'],
    name: ['name', 'text'],
    created: ['created', 'timestamptz'],
    state: ['state', 'text'],
    spendLimitTransaction: ['spend_limit_transaction', 'bigint'],
    spendLimitWeekly: ['spend_limit_weekly', 'bigint'],
    spendLimitMonthly: ['spend_limit_monthly', 'bigint'],
    velocityMaxAuthorizations: ['velocity_max_authorizations', 'integer'],
    velocityWindowSeconds: ['velocity_window_seconds', 'integer'],
    blockedMerchants: ['blocked_merchants', 'text[]'],
  },
};

export const API_KEYS: TableSpec<ApiKey> = {
  table: 'api_keys',
  key: 'keyId',
  columns: {
    keyId: ['key_id', 'uuid'],
    keyHash: ['key_hash', 'text'],
    programToken: ['program_token', 'uuid'],
    created: ['created', 'timestamptz'],
    revoked: ['revoked', 'boolean'],
  },
};

export const FUNDING_SOURCES: TableSpec<FundingSource> = {
  table: 'funding_sources',
  key: 'token',
  columns: {
    token: ['token', 'uuid'],
    programToken: ['program_token', 'uuid'],
    type: ['type', 'text'],
    state: ['state', 'text'],
    nickname: ['nickname', 'text'],
    accountName: ['account_name', 'text'],
    lastFour: ['last_four', 'text'],
    isDefault: ['is_default', 'boolean'],
    created: ['created', 'timestamptz'],
  },
};

export const CARDS: TableSpec<Card> = {
  table: 'cards',
  key: 'token',
  columns: {
    token: ['token', 'uuid'],
    programToken: ['program_token', 'uuid'],
    type: ['type', 'text'],
    state: ['state', 'text'],
    memo: ['memo', 'text'],
    spendLimit: ['spend_limit', 'bigint'],
    spendLimitDuration: ['spend_limit_duration', 'text'],
    fundingToken: ['funding_token', 'uuid'],
    expMonth: ['exp_month', 'text'],
    expYear: ['exp_year', 'text'],
    lastFour: ['last_four', 'text'],
    panHash: ['pan_hash', 'text'],
    panEncrypted: ['pan_encrypted', 'text'],
    hostname: ['hostname', 'text'],
    pinSet: ['pin_set', 'boolean'],
    created: ['created', 'timestamptz'],
    updated: ['updated', 'timestamptz'],
  },
};

export const TRANSACTIONS: TableSpec<ProjectedTransactionRow> = {
  table: 'transactions',
  key: 'token',
  columns: {
    token: ['token', 'uuid'],
    programToken: ['program_token', 'uuid'],
    cardToken: ['card_token', 'uuid'],
    fundingToken: ['funding_token', 'uuid'],
    status: ['status', 'text'],
    result: ['result', 'text'],
    amount: ['amount', 'bigint'],
    authorizationAmount: ['authorization_amount', 'bigint'],
    settledAmount: ['settled_amount', 'bigint'],
    merchantAmount: ['merchant_amount', 'bigint'],
    merchantAuthorizationAmount: ['merchant_authorization_amount', 'bigint'],
    merchantCurrency: ['merchant_currency', 'text'],
    rateAmount: ['rate_amount', 'bigint'],
    rateMerchantAmount: ['rate_merchant_amount', 'bigint'],
    authorizationCode: ['authorization_code', 'text'],
    merchantAcceptorId: ['merchant_acceptor_id', 'text'],
    merchantCity: ['merchant_city', 'text'],
    merchantCountry: ['merchant_country', 'text'],
    merchantDescriptor: ['merchant_descriptor', 'text'],
    merchantMcc: ['merchant_mcc', 'text'],
    merchantState: ['merchant_state', 'text'],
    events: ['events', 'jsonb'],
    version: ['version', 'integer'],
    created: ['created', 'timestamptz'],
    updated: ['updated', 'timestamptz'],
  },
};

export const TRANSACTION_COUNTS: TableSpec<TransactionCount> = {
  table: 'transaction_counts',
  key: 'scopeToken',
  columns: {
    scopeToken: ['scope_token', 'uuid'],
    programToken: ['program_token', 'uuid'],
    approved: ['approved', 'bigint'],
    declined: ['declined', 'bigint'],
  },
};

export const EVENT_SUBSCRIPTIONS: TableSpec<EventSubscriptionRow> = {
  table: 'event_subscriptions',
  key: 'token',
  columns: {
    token: ['token', 'uuid'],
    programToken: ['program_token', 'uuid'],
    url: ['url', 'text'],
    description: ['description', 'text'],
    eventTypes: ['event_types', 'text[]'],
    disabled: ['disabled', 'boolean'],
    failing: ['failing', 'boolean'],
    secretSealed: ['secret_sealed', 'text'],
    created: ['created', 'timestamptz'],
    updated: ['updated', 'timestamptz'],
  },
};

/** The SQL the projector runs: raw, parameterised statements on the batch's transaction. */
export interface SqlClient {
  query<T>(sql: string, values: readonly unknown[]): Promise<T[]>;
  execute(sql: string, values: readonly unknown[]): Promise<number>;
}

/** A statement to execute, its parameters already encoded. */
export interface SqlStatement {
  readonly sql: string;
  readonly values: readonly unknown[];
}

/** Rows per upsert statement: one JSON parameter each, so no limit on bind parameters applies. */
const UPSERT_CHUNK = 5000;

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
  private readonly types: readonly SqlType[];
  private readonly loadSql: string;
  private readonly upsertSql: string;
  private readonly deleteSql: string;

  constructor(
    readonly spec: TableSpec<Row>,
    schema?: string,
  ) {
    const table = schema ? `${quote(schema)}.${quote(spec.table)}` : quote(spec.table);
    const entries = Object.entries(spec.columns) as [keyof Row & string, readonly [string, SqlType]][];
    this.fields = entries.map(([field]) => field);
    this.types = entries.map(([, [, type]]) => type);
    const columns = entries.map(([, [column]]) => quote(column));
    const keyColumn = quote(spec.columns[spec.key][0]);
    this.loadSql =
      `select k.key as "__key", ${columns.map((column, i) => `t.${column} as c${i}`).join(', ')} ` +
      `from unnest($1::text[]) as k(key) cross join lateral (select * from ${table} where ${keyColumn} = k.key::uuid limit 1) as t`;
    this.upsertSql =
      `insert into ${table} (${columns.join(', ')}) ` +
      `select ${this.types.map((type, i) => fromJson(`r.value`, i, type)).join(', ')} from jsonb_array_elements($1::jsonb) as r ` +
      `on conflict (${keyColumn}) do update set ${columns.filter((column) => column !== keyColumn).map((column) => `${column} = excluded.${column}`).join(', ')}`;
    this.deleteSql = `delete from ${table} where ${keyColumn} = any($1::uuid[])`;
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
   * upserts of up to {@link UPSERT_CHUNK} rows. The rows are encoded now.
   */
  writes(rows: RowSet<Row>): SqlStatement[] {
    const { upserts, deletes } = rows.takeChanges();
    const statements: SqlStatement[] = [];
    if (deletes.length > 0) statements.push({ sql: this.deleteSql, values: [deletes] });
    for (let start = 0; start < upserts.length; start += UPSERT_CHUNK) {
      statements.push({ sql: this.upsertSql, values: [this.encode(upserts.slice(start, start + UPSERT_CHUNK))] });
    }
    return statements;
  }

  /**
   * The rows as one JSON array of arrays of column values, as the upsert reads them: a bigint as a
   * string of its digits (nothing rounds), a timestamp as ISO 8601 with its milliseconds, jsonb and
   * text[] as JSON, everything else as is.
   */
  encode(rows: readonly Row[]): string {
    const { fields, types } = this;
    let lastTime = NaN;
    let lastIso = '';
    const encoded = rows.map((row) => {
      const values: unknown[] = new Array(fields.length);
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
      return values;
    });
    return JSON.stringify(encoded);
  }
}

/** Column `i` of a row array `row` (jsonb) as SQL of the column's type; JSON null is SQL null. */
function fromJson(row: string, i: number, type: SqlType): string {
  switch (type) {
    case 'jsonb':
      return `nullif(${row}->${i}, 'null'::jsonb)`;
    case 'text[]':
      return `case when ${row}->>${i} is null then null else array(select e.value from jsonb_array_elements_text(${row}->${i}) with ordinality as e(value, n) order by e.n) end`;
    default:
      return `(${row}->>${i})::${type}`;
  }
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** The projected tables, by the names of {@link ProjectionRows}. */
export type ProjectedTables = { readonly [Name in keyof ProjectionRows]: ProjectedTable<ProjectionRows[Name] extends RowSet<infer Row> ? Row : never> };

export function projectedTables(schema?: string): ProjectedTables {
  return {
    programs: new ProjectedTable(PROGRAMS, schema),
    apiKeys: new ProjectedTable(API_KEYS, schema),
    fundingSources: new ProjectedTable(FUNDING_SOURCES, schema),
    cards: new ProjectedTable(CARDS, schema),
    transactions: new ProjectedTable(TRANSACTIONS, schema),
    transactionCounts: new ProjectedTable(TRANSACTION_COUNTS, schema),
    eventSubscriptions: new ProjectedTable(EVENT_SUBSCRIPTIONS, schema),
  };
}
