import { createHash } from 'node:crypto';

/**
 * A statement the process sends again and again, in the form node-postgres takes a named statement:
 * each connection prepares it on first use, and PostgreSQL then reuses its plan instead of planning
 * it at every call. The group commit's statement took longer to plan (0.68 ms) than to run (0.6 ms),
 * and the projector's upserts are of the same kind (docs/benchmarks.md).
 *
 * Only for a few texts fixed when the statement is built (per schema, per table): each stays prepared
 * on every connection that used it, for the connection's life, and holds its plans there (about
 * 100 KB for one of the projector's upserts).
 */
export interface PreparedSql {
  /** Derived from the text: node-postgres refuses one name for two texts on a connection. */
  readonly name: string;
  readonly text: string;
}

/** SQL as a statement is given: plain text, planned at every call, or prepared. */
export type SqlText = string | PreparedSql;

/** Under PostgreSQL's 63-byte limit on a statement name. */
const NAME_HASH_CHARS = 32;

export function preparedSql(text: string): PreparedSql {
  return { name: `ledger_${createHash('sha256').update(text).digest('hex').slice(0, NAME_HASH_CHARS)}`, text };
}

export function textOf(sql: SqlText): string {
  return typeof sql === 'string' ? sql : sql.text;
}
