/**
 * PostgreSQL type of a read-model column, as the projector casts a value to it. `timestamptz` is
 * `timestamptz(3)`: milliseconds, what a JavaScript Date holds. The only types schema.prisma uses;
 * tools/read-model-tables-generator.mjs refuses any other.
 */
export type ColumnType = 'uuid' | 'text' | 'bigint' | 'integer' | 'boolean' | 'timestamptz' | 'jsonb' | 'text[]';

/** A JSON value of a column, as node-postgres reads it back (a bigint as the string of its digits). */
export type ColumnValue = string | number | boolean | null | readonly string[];

export interface ColumnDescription {
  /** The column's name in the table (the field's `@map`, else the field's name). */
  readonly column: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
  /** The column's default (schema.prisma's `@default`); absent when it has none. */
  readonly default?: ColumnValue;
}

/**
 * A model of schema.prisma as its table, fields named as the model names them: generated from
 * Prisma's reading of the schema (DMMF) by tools/read-model-tables-generator.mjs.
 */
export interface TableDescription<Row> {
  readonly table: string;
  readonly primaryKey: readonly (keyof Row & string)[];
  /** Every field of the row, with its column. */
  readonly columns: { readonly [Field in keyof Row & string]-?: ColumnDescription };
  /** Unique constraints other than the primary key, and plain indexes: the fields of each, in order. */
  readonly uniques: readonly (readonly (keyof Row & string)[])[];
  readonly indexes: readonly (readonly (keyof Row & string)[])[];
}
