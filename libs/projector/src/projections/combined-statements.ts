import { textOf } from '@ledger/event-store';
import type { SqlStatement } from './read-model-tables';

/** PostgreSQL's limit on one statement's parameters: its Bind message counts them in 16 bits. */
export const MAX_STATEMENT_PARAMETERS = 65_535;

/**
 * The statements as few statements as their parameters allow, each a `with` of data-modifying parts,
 * so that a batch's writes cost one round trip instead of one per statement. What a replay's writer
 * sends: node-postgres sends a query only once the one before it is answered, and only when the
 * event loop turns, which a replay keeps busy deriving the next batch; a batch's thirty statements
 * waited on thirty turns.
 *
 * Every part runs to completion on the statement's one snapshot, so the parts must not depend on
 * each other's effects: the projector's writes of one batch touch each row once (a key is upserted or
 * deleted, never both), and no table of theirs references another. A part may not itself begin with
 * `with` (PostgreSQL allows data-modifying `with` at the top level only), and its only `$` are its
 * placeholders, which are renumbered.
 */
export function combinedStatements(statements: readonly SqlStatement[], maxParameters = MAX_STATEMENT_PARAMETERS): SqlStatement[] {
  const groups: SqlStatement[][] = [];
  let group: SqlStatement[] = [];
  let parameters = 0;
  for (const statement of statements) {
    if (group.length > 0 && parameters + statement.values.length > maxParameters) {
      groups.push(group);
      group = [];
      parameters = 0;
    }
    group.push(statement);
    parameters += statement.values.length;
  }
  if (group.length > 0) groups.push(group);
  return groups.map((parts) => (parts.length === 1 ? parts[0] : combined(parts)));
}

function combined(parts: readonly SqlStatement[]): SqlStatement {
  const values: unknown[] = [];
  const clauses = parts.map((part, i) => {
    const text = textOf(part.sql);
    if (/^\s*with\b/i.test(text)) throw new Error(`combinedStatements: a part cannot begin with "with": ${text.slice(0, 60)}`);
    const offset = values.length;
    for (const value of part.values) values.push(value);
    return `part${i} as (${text.replace(/\$(\d+)/g, (_, n: string) => `$${offset + Number(n)}`)})`;
  });
  return { sql: `with ${clauses.join(', ')} select`, values };
}
