import type { KnownRows, ProjectionRows } from './projection-rows';
import { WrittenKeys } from './written-keys';

type TableName = keyof ProjectionRows;

const TABLES: readonly TableName[] = ['programs', 'apiKeys', 'fundingSources', 'cards', 'transactions', 'transactionCounts', 'eventSubscriptions'];

interface Carried {
  readonly row: unknown;
  /** The last batch that wrote it. */
  readonly batch: number;
}

/**
 * The rows of batches sent to PostgreSQL but not yet committed, for the batches after them. A replay
 * applies batch N+1 while batch N is still being written: the table does not show N's rows yet, so a
 * row N wrote is taken from here, and only a row no uncommitted batch wrote is read from the table,
 * where the committed value is the latest. A batch's rows are dropped once it has committed, which
 * keeps the memory to the batches in flight.
 *
 * Into tables that started empty (a replay's fresh schema), a row the replay never wrote is absent
 * without reading it: the keys written are kept in a {@link WrittenKeys} filter.
 */
export class CarriedRows {
  private readonly tables = new Map<TableName, Map<string, Carried>>(TABLES.map((name) => [name, new Map()]));
  private readonly keysOfBatch = new Map<number, [TableName, string][]>();
  private readonly written: WrittenKeys | null;

  /** What the next batch's row sets look up before they read the tables. */
  readonly known: KnownRows;

  constructor(options: { tablesStartEmpty: boolean }) {
    const written = (this.written = options.tablesStartEmpty ? new WrittenKeys() : null);
    this.known = Object.fromEntries(
      TABLES.map((name, table) => {
        const carried = this.tables.get(name) as Map<string, Carried>;
        return [
          name,
          (key: string) => {
            const found = carried.get(key);
            if (found) return found.row;
            return written && !written.mayHave(table, key) ? null : undefined;
          },
        ];
      }),
    ) as KnownRows;
  }

  /** Keeps every row the batch wrote, as the batch left it, until that batch has committed. */
  carry(batch: number, rows: ProjectionRows): void {
    const keys: [TableName, string][] = [];
    TABLES.forEach((name, table) => {
      const carried = this.tables.get(name) as Map<string, Carried>;
      for (const [key, row] of rows[name].writtenRows()) {
        carried.set(key, { row, batch });
        keys.push([name, key]);
        this.written?.add(table, key);
      }
    });
    this.keysOfBatch.set(batch, keys);
  }

  /** The batch is committed: its rows are in the tables, unless a later batch still carries them. */
  committed(batch: number): void {
    for (const [name, key] of this.keysOfBatch.get(batch) ?? []) {
      const carried = this.tables.get(name) as Map<string, Carried>;
      if (carried.get(key)?.batch === batch) carried.delete(key);
    }
    this.keysOfBatch.delete(batch);
  }

  /** Rows carried, over every table. */
  get size(): number {
    let size = 0;
    for (const carried of this.tables.values()) size += carried.size;
    return size;
  }
}
