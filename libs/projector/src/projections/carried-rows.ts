import { type KnownRows, PROJECTION_TABLES as TABLES, type ProjectionRows } from './projection-rows';
import { WrittenKeys } from './written-keys';

/**
 * The rows of batches sent to PostgreSQL but not yet committed, for the batches after them. A replay
 * applies batch N+1 while batch N is still being written: the table does not show N's rows yet, so a
 * row N wrote is taken from N's own row sets (the latest batch that wrote it winning), and only a row
 * no uncommitted batch wrote is read from the table, where the committed value is the latest. A
 * batch's rows are let go once it has committed, which keeps the memory to the batches in flight.
 *
 * Into tables that started empty (a replay's fresh schema), a row the replay never wrote is absent
 * without reading it: the keys written are kept in a {@link WrittenKeys} filter.
 */
export class CarriedRows {
  /** The batches not yet committed, oldest first. */
  private readonly batches: { readonly batch: number; readonly rows: ProjectionRows }[] = [];
  private readonly written: WrittenKeys | null;

  /** What the next batch's row sets look up before they read the tables. */
  readonly known: KnownRows;

  constructor(options: { tablesStartEmpty: boolean }) {
    const written = (this.written = options.tablesStartEmpty ? new WrittenKeys() : null);
    const batches = this.batches;
    this.known = Object.fromEntries(
      TABLES.map((name, table) => [
        name,
        (key: string) => {
          for (let i = batches.length - 1; i >= 0; i--) {
            const row = batches[i].rows[name].writtenRow(key);
            if (row !== undefined) return row;
          }
          return written && !written.mayHave(table, key) ? null : undefined;
        },
      ]),
    ) as KnownRows;
  }

  /** Keeps the rows the batch wrote, as the batch left them, until that batch has committed. */
  carry(batch: number, rows: ProjectionRows): void {
    this.batches.push({ batch, rows });
    if (this.written) {
      for (let table = 0; table < TABLES.length; table++) {
        for (const key of rows[TABLES[table]].writtenKeys()) this.written.add(table, key);
      }
    }
  }

  /** The batch is committed: its rows are in the tables. */
  committed(batch: number): void {
    const at = this.batches.findIndex((carried) => carried.batch === batch);
    if (at >= 0) this.batches.splice(at, 1);
  }

  /** Batches whose rows are carried. */
  get carriedBatches(): number {
    return this.batches.length;
  }
}
