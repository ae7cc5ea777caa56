import type { ApiKey, Card, EventSubscriptionRow, FundingSource, Program, TransactionCount, transactionRow } from '@ledger/read-model';

/** A transactions row as the projector writes it: every column but acquirer_fee (left at its default). */
export type ProjectedTransactionRow = ReturnType<typeof transactionRow>;

/**
 * The rows of one table that a batch works on, keyed by primary key as the events spell it. A
 * projection first says which rows it needs to read (`need`); the projector loads them all in one
 * query; the projection then reads and replaces rows in memory; the projector writes back the ones
 * that changed. `null` is a row that does not exist (never created, or deleted in this batch).
 */
export class RowSet<Row> {
  private readonly rows = new Map<string, Row | null>();
  private readonly needed = new Set<string>();
  private readonly changed = new Set<string>();

  constructor(private readonly table: string) {}

  /** This row is read by an event of the batch: load it (or learn it is absent) before applying. */
  need(key: string): void {
    this.needed.add(key);
  }

  /** The keys to load; each must then be reported with {@link loaded}. */
  keysToLoad(): string[] {
    return [...this.needed].filter((key) => !this.rows.has(key));
  }

  /** The stored row of a needed key; `null` when it is not in the table. */
  loaded(key: string, row: Row | null): void {
    this.rows.set(key, row);
  }

  /** The row as the events so far leave it; `null` when it does not exist. */
  get(key: string): Row | null {
    const row = this.rows.get(key);
    if (row === undefined) throw new Error(`projector: ${this.table} row ${key} read but not loaded (a projection did not declare it)`);
    return row;
  }

  /** Replaces the row; `null` deletes it. */
  set(key: string, row: Row | null): void {
    this.rows.set(key, row);
    this.changed.add(key);
  }

  /**
   * What to write back since the last call: rows to upsert and keys to delete, each key once, as
   * the events so far leave them. A row changed again later is taken again by a later call.
   */
  takeChanges(): { upserts: Row[]; deletes: string[] } {
    const upserts: Row[] = [];
    const deletes: string[] = [];
    for (const key of this.changed) {
      const row = this.rows.get(key) ?? null;
      if (row === null) deletes.push(key);
      else upserts.push(row);
    }
    this.changed.clear();
    return { upserts, deletes };
  }
}

/** Every table the read-model projector writes, as one batch's rows. */
export interface ProjectionRows {
  readonly programs: RowSet<Program>;
  readonly apiKeys: RowSet<ApiKey>;
  readonly fundingSources: RowSet<FundingSource>;
  readonly cards: RowSet<Card>;
  readonly transactions: RowSet<ProjectedTransactionRow>;
  readonly transactionCounts: RowSet<TransactionCount>;
  readonly eventSubscriptions: RowSet<EventSubscriptionRow>;
}

export function newProjectionRows(): ProjectionRows {
  return {
    programs: new RowSet('programs'),
    apiKeys: new RowSet('api_keys'),
    fundingSources: new RowSet('funding_sources'),
    cards: new RowSet('cards'),
    transactions: new RowSet('transactions'),
    transactionCounts: new RowSet('transaction_counts'),
    eventSubscriptions: new RowSet('event_subscriptions'),
  };
}

/** A row an event updates must exist, as Prisma's `update` demanded: a missing one fails the batch. */
export function existing<Row>(row: Row | null, table: string, key: string, eventType: string): Row {
  if (row === null) throw new Error(`projector: ${eventType} updates ${table} row ${key}, which does not exist`);
  return row;
}
