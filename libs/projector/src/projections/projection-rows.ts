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
  /** Every key set in this batch, kept past takeChanges: what a replay carries to the next batch. */
  private readonly written = new Set<string>();

  /**
   * @param known rows known without reading the table (a replay's rows of batches still being
   * written): `undefined` for a key it does not know, `null` for a row it knows is absent.
   */
  constructor(
    private readonly table: string,
    private readonly known?: (key: string) => Row | null | undefined,
  ) {}

  /** This row is read by an event of the batch: load it (or learn it is absent) before applying. */
  need(key: string): void {
    if (this.known && !this.rows.has(key)) {
      const row = this.known(key);
      if (row !== undefined) {
        this.rows.set(key, row);
        return;
      }
    }
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
    this.written.add(key);
  }

  /** A row set in this batch, as the events leave it (`null` deleted); `undefined` when the batch did not set it. */
  writtenRow(key: string): Row | null | undefined {
    return this.written.has(key) ? (this.rows.get(key) ?? null) : undefined;
  }

  /** The keys of every row set in this batch, whether or not its changes were already taken. */
  writtenKeys(): Iterable<string> {
    return this.written;
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

/** Every table of {@link ProjectionRows}, by its name there. */
export const PROJECTION_TABLES: readonly (keyof ProjectionRows)[] = ['programs', 'apiKeys', 'fundingSources', 'cards', 'transactions', 'transactionCounts', 'eventSubscriptions'];

/** Rows known without reading the tables, per table (see {@link RowSet}'s `known`). */
export type KnownRows = { readonly [Name in keyof ProjectionRows]?: (key: string) => RowOf<ProjectionRows[Name]> | null | undefined };

/** The row type a {@link RowSet} holds. */
export type RowOf<Rows> = Rows extends RowSet<infer Row> ? Row : never;

export function newProjectionRows(known: KnownRows = {}): ProjectionRows {
  return {
    programs: new RowSet('programs', known.programs),
    apiKeys: new RowSet('api_keys', known.apiKeys),
    fundingSources: new RowSet('funding_sources', known.fundingSources),
    cards: new RowSet('cards', known.cards),
    transactions: new RowSet('transactions', known.transactions),
    transactionCounts: new RowSet('transaction_counts', known.transactionCounts),
    eventSubscriptions: new RowSet('event_subscriptions', known.eventSubscriptions),
  };
}

/** A row an event updates must exist, as Prisma's `update` demanded: a missing one fails the batch. */
export function existing<Row>(row: Row | null, table: string, key: string, eventType: string): Row {
  if (row === null) throw new Error(`projector: ${eventType} updates ${table} row ${key}, which does not exist`);
  return row;
}
