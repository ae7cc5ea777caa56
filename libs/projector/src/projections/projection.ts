import type { LedgerEvent, LedgerEventType } from '@ledger/contracts';
import type { RecordedEvent } from '@ledger/event-store';
import type { ProjectionRows } from './projection-rows';

/**
 * One read model's reaction to the events it cares about, applied a batch at a time in memory: the
 * projector asks each projection which stored rows the batch's events read (`need`), loads those
 * with one query per table, lets the projection `apply` the events in log order to the rows, then
 * writes the changed rows back with one statement per table. Rows follow from the events by pure
 * functions (exported next to each projection), and a row is always written whole (an upsert), so
 * applying an event twice leaves the same rows as applying it once.
 */
export interface Projection<Type extends LedgerEventType = LedgerEventType> {
  /** The event types it reacts to; the projector hands it no others. */
  readonly events: readonly Type[];
  /** Declares the stored rows this event reads; an event that replaces a whole row needs none. */
  need(event: Extract<LedgerEvent, { type: Type }>, rows: ProjectionRows): void;
  /** Applies the event to the batch's rows in memory. */
  apply(event: Extract<LedgerEvent, { type: Type }>, recorded: RecordedEvent, rows: ProjectionRows): void;
}
