// A Prisma generator (the `tables` generator of libs/read-model/prisma/schema.prisma): `prisma generate`
// runs it next to the client, in the same `npm run prisma:generate`, and hands it the schema as Prisma
// reads it (the DMMF). It writes every model's table, columns, column types, keys and indexes to
// libs/read-model/src/generated/tables (git-ignored, like the client), so that schema.prisma is the
// only place a read-model column is declared: the projector's SQL is built from this file, and
// schema-agreement.spec.ts checks it against what the SQL migrations create.
//
// Prisma talks to a generator in JSON-RPC, a request a line on its stdin, an answer a line on its
// stderr (what @prisma/generator-helper wraps; two methods, so it is spoken here directly).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const OUTPUT_FILE = 'table-descriptions.ts';

if (!process.env.PRISMA_GENERATOR_INVOCATION) {
  console.error('read-model-tables-generator: run by `npm run prisma:generate` (prisma generate), not by hand');
  process.exit(1);
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const request = JSON.parse(line);
  try {
    answer(request.id, { result: handle(request.method, request.params) });
  } catch (error) {
    answer(request.id, { error: { code: -32000, message: error instanceof Error ? error.message : String(error), data: { stack: error?.stack } } });
  }
});

function answer(id, outcome) {
  process.stderr.write(`${JSON.stringify({ jsonrpc: '2.0', id, ...outcome })}\n`);
}

function handle(method, params) {
  switch (method) {
    case 'getManifest':
      return { manifest: { prettyName: 'read-model table descriptions' } };
    case 'generate':
      writeDescriptions(params);
      return null;
    default:
      throw new Error(`read-model-tables-generator: unknown method ${method}`);
  }
}

function writeDescriptions({ dmmf, generator, schemaPath }) {
  const output = generator.output.value;
  const tables = Object.fromEntries(dmmf.datamodel.models.map((model) => [model.name, describeModel(model, dmmf.datamodel.indexes)]));
  const source =
    `// Generated from ${path.relative(process.cwd(), schemaPath)} by tools/read-model-tables-generator.mjs\n` +
    `// (npm run prisma:generate, with the Prisma client): do not edit. Typed by ../../read-model-tables.ts.\n` +
    `export const GENERATED_TABLES = ${formatTables(tables)} as const;\n`;
  mkdirSync(output, { recursive: true });
  writeFileSync(path.join(output, OUTPUT_FILE), source);
}

/** A table a few lines, a column a line. */
function formatTables(tables) {
  const entries = (object, indent, format) =>
    Object.entries(object).map(([key, value]) => `${indent}${JSON.stringify(key)}: ${format(value)},`).join('\n');
  const table = (description) =>
    `{\n${entries(description, '    ', (value) => (value === description.columns ? `{\n${entries(value, '      ', JSON.stringify)}\n    }` : JSON.stringify(value)))}\n  }`;
  return `{\n${entries(tables, '  ', table)}\n}`;
}

/** A model as its table: see TableDescription in libs/read-model/src/table-description.ts. */
function describeModel(model, indexes) {
  const own = indexes.filter((index) => index.model === model.name);
  const fieldsOf = (type) => own.filter((index) => index.type === type).map((index) => index.fields.map((field) => field.name));
  const [primaryKey] = fieldsOf('id');
  if (!primaryKey) throw new Error(`${model.name}: a read-model table needs a primary key`);
  return {
    table: model.dbName ?? model.name,
    primaryKey,
    columns: Object.fromEntries(model.fields.map((field) => [field.name, describeField(model, field)])),
    uniques: fieldsOf('unique'),
    indexes: fieldsOf('normal'),
  };
}

function describeField(model, field) {
  if (field.isUpdatedAt) throw new Error(`${model.name}.${field.name}: @updatedAt is set by Prisma alone, not by the projector's SQL; not supported`);
  const description = { column: field.dbName ?? field.name, type: columnType(model, field), nullable: !field.isRequired };
  return field.hasDefaultValue ? { ...description, default: defaultValue(model, field) } : description;
}

/**
 * The PostgreSQL type of a field's column, as the projector casts to it (ColumnType). Only the types
 * the read model uses are known; another fails here, so that the projector's SQL never guesses.
 */
function columnType(model, field) {
  const where = `${model.name}.${field.name}`;
  if (field.kind !== 'scalar') throw new Error(`${where}: ${field.kind} fields are not supported in the read model`);
  const [native, args] = field.nativeType ?? [null, []];
  const scalar = `${field.type}${native ? ` @db.${native}(${args.join(',')})` : ''}`;
  const type = {
    String: 'text',
    'String @db.Uuid()': 'uuid',
    BigInt: 'bigint',
    Int: 'integer',
    Boolean: 'boolean',
    // Milliseconds, as a JavaScript Date holds them; the projector writes instants with them.
    'DateTime @db.Timestamptz(3)': 'timestamptz',
    Json: 'jsonb',
  }[scalar];
  if (!type) throw new Error(`${where}: ${scalar} has no column type yet (add it to ColumnType and to this generator)`);
  if (!field.isList) return type;
  if (type !== 'text') throw new Error(`${where}: only lists of text are supported (${scalar}[])`);
  return 'text[]';
}

/** A literal @default as the column's value (bigint as its digits, as DMMF gives it); a function default is not supported. */
function defaultValue(model, field) {
  const value = field.default;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    throw new Error(`${model.name}.${field.name}: @default(${value.name}()) is not supported; the read model's defaults are literals`);
  }
  return value;
}
