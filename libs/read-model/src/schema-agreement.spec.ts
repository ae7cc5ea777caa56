import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { migrateReadModel } from './migrate';
import { createReadModelClient, Prisma, type PrismaClient } from './prisma-client';

// The tables come from the SQL migrations, the queries from schema.prisma: these tests prove the two
// describe the same database. Every model is written and read back with every field set, and the
// columns, defaults and indexes Prisma's schema declares are compared with what the SQL created, so
// a column, table or index added on one side only fails here.

const SCHEMA = 'read_model_agreement';
const schemaFile = path.join(__dirname, '..', 'prisma', 'schema.prisma');

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

// ---------------------------------------------------------------------------------------------------
// schema.prisma, read without @prisma/internals: models, fields, their columns and attributes.
// ---------------------------------------------------------------------------------------------------

interface ParsedField {
  name: string;
  column: string;
  type: string;
  optional: boolean;
  list: boolean;
  nativeType?: string;
  hasDefault: boolean;
  id: boolean;
  unique: boolean;
}

interface ParsedModel {
  name: string;
  table: string;
  fields: ParsedField[];
  primaryKey: string[];
  uniques: string[][];
  indexes: string[][];
}

const SCALARS = new Set(['String', 'Boolean', 'Int', 'BigInt', 'Float', 'Decimal', 'DateTime', 'Json', 'Bytes']);

function parsePrismaSchema(source: string): ParsedModel[] {
  const models: ParsedModel[] = [];
  const lines = source.split('\n').map((line) => line.replace(/\/\/.*$/, '').trim());
  for (let i = 0; i < lines.length; i++) {
    const header = /^model\s+(\w+)\s*\{$/.exec(lines[i]);
    if (!header) continue;
    const model: ParsedModel = { name: header[1], table: header[1], fields: [], primaryKey: [], uniques: [], indexes: [] };
    for (i++; lines[i] !== '}'; i++) {
      const line = lines[i];
      if (line === '') continue;
      if (line.startsWith('@@')) {
        const attribute = /^@@(\w+)\((.*)\)$/.exec(line);
        if (!attribute) throw new Error(`unparsed block attribute in model ${model.name}: ${line}`);
        const [, kind, args] = attribute;
        const columns = () => /^\[([^\]]*)\]/.exec(args)![1].split(',').map((name) => name.trim());
        if (kind === 'map') model.table = JSON.parse(args) as string;
        else if (kind === 'id') model.primaryKey = columns();
        else if (kind === 'unique') model.uniques.push(columns());
        else if (kind === 'index') model.indexes.push(columns());
        else throw new Error(`unhandled block attribute @@${kind} in model ${model.name}`);
        continue;
      }
      const field = /^(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
      if (!field) throw new Error(`unparsed line in model ${model.name}: ${line}`);
      const [, name, type, list, optional, attributes] = field;
      if (!SCALARS.has(type)) throw new Error(`${model.name}.${name}: relation or enum fields are not handled here yet`);
      model.fields.push({
        name,
        column: /@map\("([^"]+)"\)/.exec(attributes)?.[1] ?? name,
        type,
        optional: optional === '?',
        list: list === '[]',
        nativeType: /@db\.(\w+(?:\([^)]*\))?)/.exec(attributes)?.[1],
        hasDefault: /@default\(/.test(attributes) || /@updatedAt\b/.test(attributes),
        id: /@id\b/.test(attributes),
        unique: /@unique\b/.test(attributes),
      });
    }
    const idFields = model.fields.filter((f) => f.id).map((f) => f.name);
    if (idFields.length > 0) model.primaryKey = idFields;
    for (const f of model.fields.filter((candidate) => candidate.unique)) model.uniques.push([f.name]);
    models.push(model);
  }
  return models;
}

/** The `information_schema.columns` data type (and datetime precision) Prisma expects for a field. */
function expectedColumnType(field: ParsedField): { type: string; precision: number | null } {
  const native = field.nativeType?.replace(/\(.*\)$/, '');
  const precision = Number(/\((\d+)\)$/.exec(field.nativeType ?? '')?.[1] ?? 3);
  const byNative: Record<string, string> = {
    Uuid: 'uuid',
    Text: 'text',
    VarChar: 'character varying',
    Timestamptz: 'timestamp with time zone',
    Timestamp: 'timestamp without time zone',
    Date: 'date',
    Integer: 'integer',
    BigInt: 'bigint',
    Boolean: 'boolean',
    JsonB: 'jsonb',
  };
  const byScalar: Record<string, string> = {
    String: 'text',
    Boolean: 'boolean',
    Int: 'integer',
    BigInt: 'bigint',
    Float: 'double precision',
    Decimal: 'numeric',
    DateTime: 'timestamp without time zone',
    Json: 'jsonb',
    Bytes: 'bytea',
  };
  const type = native ? byNative[native] : byScalar[field.type];
  if (!type) throw new Error(`no column type known for ${field.type} @db.${field.nativeType}; extend this test`);
  const isTimestamp = type.startsWith('timestamp');
  return { type: field.list ? 'ARRAY' : type, precision: isTimestamp ? precision : null };
}

const models = parsePrismaSchema(readFileSync(schemaFile, 'utf8'));
const columnOf = (model: ParsedModel, field: string) => model.fields.find((f) => f.name === field)!.column;

describe('schema.prisma as read by this test', () => {
  it('has exactly the models and scalar fields of the generated client', () => {
    expect(models.map((m) => m.name).sort()).toEqual(Object.values(Prisma.ModelName).sort());
    for (const model of models) {
      const fieldEnum = (Prisma as unknown as Record<string, Record<string, string>>)[`${model.name}ScalarFieldEnum`];
      expect({ model: model.name, fields: model.fields.map((f) => f.name).sort() }).toEqual({
        model: model.name,
        fields: Object.values(fieldEnum).sort(),
      });
    }
  });
});

describe('the SQL migrations create what schema.prisma describes', () => {
  it('has one table per model and no other', async () => {
    const tables = await pool.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = $1 and table_name <> '_ledger_migrations'`,
      [SCHEMA],
    );
    expect(tables.rows.map((r) => r.table_name).sort()).toEqual(models.map((m) => m.table).sort());
  });

  it.each(models.map((m) => [m.name, m] as const))('%s: columns, nullability, types and defaults', async (_, model) => {
    const actual = await pool.query<{
      column_name: string;
      is_nullable: 'YES' | 'NO';
      data_type: string;
      datetime_precision: number | null;
      has_default: boolean;
    }>(
      `select column_name, is_nullable, data_type, datetime_precision, column_default is not null as has_default
         from information_schema.columns where table_schema = $1 and table_name = $2`,
      [SCHEMA, model.table],
    );
    const byColumn = (rows: { column: string; nullable: boolean; type: string; precision: number | null; default: boolean }[]) =>
      rows.sort((a, b) => a.column.localeCompare(b.column));
    expect(
      byColumn(
        actual.rows.map((c) => ({
          column: c.column_name,
          nullable: c.is_nullable === 'YES',
          type: c.data_type,
          precision: c.data_type.startsWith('timestamp') ? c.datetime_precision : null,
          default: c.has_default,
        })),
      ),
    ).toEqual(
      byColumn(
        model.fields.map((f) => ({
          column: f.column,
          nullable: f.optional,
          ...expectedColumnType(f),
          default: f.hasDefault,
        })),
      ),
    );
  });

  it.each(models.map((m) => [m.name, m] as const))('%s: primary key, unique constraints and indexes', async (_, model) => {
    const indexes = await pool.query<{ columns: string[]; is_primary: boolean; is_unique: boolean }>(
      `select array(select a.attname from unnest(i.indkey) with ordinality k(attnum, n)
                      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum order by k.n)::text[] as columns,
              i.indisprimary as is_primary, i.indisunique as is_unique
         from pg_index i
         join pg_class t on t.oid = i.indrelid
         join pg_namespace ns on ns.oid = t.relnamespace
        where ns.nspname = $1 and t.relname = $2`,
      [SCHEMA, model.table],
    );
    const key = (columns: string[]) => columns.join(',');
    const toColumns = (fields: string[]) => fields.map((f) => columnOf(model, f));
    expect(indexes.rows.filter((i) => i.is_primary).map((i) => key(i.columns))).toEqual([key(toColumns(model.primaryKey))]);
    expect(
      indexes.rows
        .filter((i) => i.is_unique && !i.is_primary)
        .map((i) => key(i.columns))
        .sort(),
    ).toEqual(model.uniques.map((u) => key(toColumns(u))).sort());
    expect(
      indexes.rows
        .filter((i) => !i.is_unique)
        .map((i) => key(i.columns))
        .sort(),
    ).toEqual(model.indexes.map((u) => key(toColumns(u))).sort());
  });
});

// ---------------------------------------------------------------------------------------------------
// Every model written and read through Prisma, every field set.
// ---------------------------------------------------------------------------------------------------

const created = new Date('2026-11-22T10:11:12.345Z');
const updated = new Date('2026-11-23T01:02:03.456Z');
const programToken = '3d1e6f0e-4c1a-4a7b-9b51-2f1a5c6d7e80';

const rows = {
  Program: {
    token: programToken,
    name: 'Sandbox program',
    created,
    state: 'PAUSED',
    spendLimitTransaction: 50_000n,
    spendLimitWeekly: 200_000n,
    spendLimitMonthly: 9_007_199_254_740_993n,
    velocityMaxAuthorizations: 10,
    velocityWindowSeconds: 60,
    blockedMerchants: ['casino royale', 'acceptor-42'],
  },
  ApiKey: {
    keyId: 'b6f0c0a2-51a4-4c8e-8f43-0d6b4b8c2a11',
    keyHash: 'a'.repeat(64),
    programToken,
    created,
    revoked: true,
  },
  FundingSource: {
    token: 'ecbd1d58-0299-48b3-84da-6ed7f5bf9ec1',
    programToken,
    type: 'DEPOSITORY_CHECKING',
    state: 'ENABLED',
    nickname: 'Operating account',
    accountName: 'Checking ...1234',
    lastFour: '1234',
    isDefault: true,
    created,
  },
  Card: {
    token: '7ef7d65c-9023-4da3-b113-3b8583fd7951',
    programToken,
    type: 'MERCHANT_LOCKED',
    state: 'PAUSED',
    memo: 'Groceries',
    spendLimit: 9_007_199_254_740_993n, // above Number.MAX_SAFE_INTEGER: no float on the way
    spendLimitDuration: 'MONTHLY',
    fundingToken: 'ecbd1d58-0299-48b3-84da-6ed7f5bf9ec1',
    expMonth: '06',
    expYear: '2031',
    lastFour: '4242',
    panHash: 'b'.repeat(64),
    panEncrypted: 'v1:iv:ciphertext:tag',
    hostname: 'shop.example.com',
    pinSet: true,
    created,
    updated,
  },
  Transaction: {
    token: '2b8f3c1d-6e4a-4b9c-8d7e-1f2a3b4c5d6e',
    programToken,
    cardToken: '7ef7d65c-9023-4da3-b113-3b8583fd7951',
    fundingToken: 'ecbd1d58-0299-48b3-84da-6ed7f5bf9ec1',
    status: 'SETTLING',
    result: 'APPROVED',
    amount: -1_250n,
    authorizationAmount: 1_500n,
    settledAmount: 1_250n,
    merchantAmount: 1_100n,
    merchantAuthorizationAmount: 1_320n,
    merchantCurrency: 'EUR',
    acquirerFee: -5n,
    rateAmount: 1_500n,
    rateMerchantAmount: 1_320n,
    authorizationCode: '123456',
    merchantAcceptorId: 'ACC-1',
    merchantCity: 'Paris',
    merchantCountry: 'FRA',
    merchantDescriptor: 'Le Bistro',
    merchantMcc: '5812',
    merchantState: 'IDF',
    events: [{ token: 'e1', type: 'AUTHORIZATION', amount: 1500, result: 'APPROVED', created: '2026-11-22T10:11:12Z' }],
    version: 3,
    created,
    updated,
  },
  TransactionCount: {
    scopeToken: '7ef7d65c-9023-4da3-b113-3b8583fd7951',
    programToken,
    approved: 9_007_199_254_740_993n, // past 2^53: a count is never a float
    declined: 0n,
  },
  ProjectorCheckpoint: {
    name: 'read-model',
    commitPosition: 18_446_744_073_709_551n,
    preparePosition: 9_223_372_036_854_775_807n, // bigint's maximum
    updated,
  },
  EventSubscription: {
    token: '5c2d7e1f-3a4b-4c5d-9e6f-7a8b9c0d1e2f',
    programToken,
    url: 'https://hooks.example.com/ledger',
    description: 'Operations',
    eventTypes: ['card.created', 'card_transaction.updated'],
    disabled: true,
    failing: true,
    secretSealed: 'v1.key.iv.tag.body',
    created,
    updated,
  },
  FeedEvent: {
    token: 'e0f1a2b3-c4d5-4e6f-8a7b-9c0d1e2f3a4b',
    programToken,
    eventType: 'card.updated',
    created,
    commitPosition: 9_007_199_254_740_993n, // past 2^53: a bigint survives the round trip
    preparePosition: 41n,
    payload: '{"event_type":"card.updated","card_token":"x","previous_fields":{"state":"OPEN"},"state":"PAUSED"}',
  },
  WebhookMessage: {
    id: '6a1b2c3d-4e5f-5a6b-8c7d-9e0f1a2b3c4d', // version 5: derived from event id and subscription
    eventId: 'e0f1a2b3-c4d5-4e6f-8a7b-9c0d1e2f3a4b',
    subscriptionToken: '5c2d7e1f-3a4b-4c5d-9e6f-7a8b9c0d1e2f',
    programToken,
    eventType: 'card_transaction.updated',
    body: '{"event_type":"card_transaction.updated","token":"6a1b2c3d-4e5f-5a6b-8c7d-9e0f1a2b3c4d","payload":{}}',
    status: 'failed',
    attempts: 9,
    roundAttempts: 1,
    nextAttemptAt: updated,
    lastResponseStatus: 503,
    created,
    deliveredAt: updated,
  },
  WebhookAttempt: {
    token: '3f9a6c2e-8b1d-5e4f-9a7c-2d6b8e0f1a3c',
    messageId: '6a1b2c3d-4e5f-5a6b-8c7d-9e0f1a2b3c4d',
    attempt: 9,
    subscriptionToken: '5c2d7e1f-3a4b-4c5d-9e6f-7a8b9c0d1e2f',
    at: updated,
    url: 'https://hooks.example.com/ledger',
    responseStatus: 503,
    error: 'http_status',
    durationMs: 15_000,
  },
  IdempotencyKey: {
    programToken,
    key: 'order-7f3a/2026-11-22 #1',
    requestHash: 'c'.repeat(64),
    status: 'done',
    responseStatus: 422,
    responseBody: 'v1.key.iv.tag.body',
    created,
    expiresAt: updated,
  },
  RateLimitWindow: {
    key: 'second:program:3d1e6f0e-4c1a-4a7b-9b51-2f1a5c6d7e80',
    hits: 101,
    windowEnds: updated,
  },
} satisfies {
  FeedEvent: Prisma.FeedEventCreateInput;
  RateLimitWindow: Prisma.RateLimitWindowCreateInput;
  IdempotencyKey: Prisma.IdempotencyKeyCreateInput;
  EventSubscription: Prisma.EventSubscriptionCreateInput;
  WebhookMessage: Prisma.WebhookMessageCreateInput;
  WebhookAttempt: Prisma.WebhookAttemptCreateInput;
  Program: Prisma.ProgramCreateInput;
  ApiKey: Prisma.ApiKeyCreateInput;
  FundingSource: Prisma.FundingSourceCreateInput;
  Card: Prisma.CardCreateInput;
  Transaction: Prisma.TransactionCreateInput;
  TransactionCount: Prisma.TransactionCountCreateInput;
  ProjectorCheckpoint: Prisma.ProjectorCheckpointCreateInput;
};

type Delegate = {
  create(args: { data: object }): Promise<object>;
  findUniqueOrThrow(args: { where: object }): Promise<object>;
  findMany(): Promise<object[]>;
};
const delegate = (name: string) => (prisma as unknown as Record<string, Delegate>)[name[0].toLowerCase() + name.slice(1)];

describe('every model through Prisma', () => {
  it('has a row with every field set for every model in this test', () => {
    expect(Object.keys(rows).sort()).toEqual(models.map((m) => m.name).sort());
    for (const model of models) {
      expect({ model: model.name, fields: Object.keys(rows[model.name as keyof typeof rows]).sort() }).toEqual({
        model: model.name,
        fields: model.fields.map((f) => f.name).sort(),
      });
    }
  });

  it.each(models.map((m) => [m.name, m] as const))('%s: create, read back, and find it in its columns', async (name, model) => {
    const data = rows[name as keyof typeof rows];
    const key = Object.fromEntries(model.primaryKey.map((f) => [f, (data as Record<string, unknown>)[f]]));
    // A compound primary key is looked up under Prisma's name for it: the fields joined by "_".
    const where = model.primaryKey.length > 1 ? { [model.primaryKey.join('_')]: key } : key;

    expect(await delegate(name).create({ data })).toEqual(data);
    expect(await delegate(name).findUniqueOrThrow({ where })).toEqual(data);
    expect(await delegate(name).findMany()).toEqual([data]);

    // The same values, read with plain SQL from the columns the mapping names (pg reads bigint as text).
    const raw = await pool.query(
      `select ${model.fields.map((f) => `"${f.column}" as "${f.name}"`).join(', ')} from ${SCHEMA}."${model.table}"`,
    );
    const asPgReadsIt = Object.fromEntries(
      Object.entries(data).map(([field, value]) => [field, typeof value === 'bigint' ? value.toString() : value]),
    );
    expect(raw.rows).toEqual([asPgReadsIt]);
  });

  it('fills in the defaults schema.prisma declares when a field is left out', async () => {
    const { revoked: _revoked, ...apiKey } = rows.ApiKey;
    const { hostname: _hostname, pinSet: _pinSet, ...card } = rows.Card;
    expect(await prisma.apiKey.create({ data: apiKey })).toMatchObject({ revoked: false });
    expect(await prisma.card.create({ data: card })).toMatchObject({ hostname: '', pinSet: false });
    const { eventTypes: _types, disabled: _disabled, failing: _failing, ...subscription } = rows.EventSubscription;
    expect(await prisma.eventSubscription.create({ data: subscription })).toMatchObject({ eventTypes: [], disabled: false, failing: false });
    const { status: _status, attempts: _attempts, roundAttempts: _round, ...message } = rows.WebhookMessage;
    expect(await prisma.webhookMessage.create({ data: message })).toMatchObject({ status: 'pending', attempts: 0, roundAttempts: 0 });
    const { status: _keyStatus, ...idempotencyKey } = rows.IdempotencyKey;
    expect(await prisma.idempotencyKey.create({ data: idempotencyKey })).toMatchObject({ status: 'in_progress' });
  });

  it('pages cards by (created, token) within a program, as the listing index is laid out', async () => {
    const tokens = ['00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    for (const [n, token] of tokens.entries()) {
      await prisma.card.create({ data: { ...rows.Card, token, panHash: `${n}`.repeat(64), created } });
    }
    const firstPage = await prisma.card.findMany({
      where: { programToken },
      orderBy: [{ created: 'asc' }, { token: 'asc' }],
      take: 2,
    });
    const secondPage = await prisma.card.findMany({
      where: { programToken },
      orderBy: [{ created: 'asc' }, { token: 'asc' }],
      cursor: { token: firstPage[1].token },
      skip: 1,
    });
    expect([...firstPage, ...secondPage].map((c) => c.token)).toEqual([...tokens].sort());
  });
});
