import type { LedgerEvent } from '@ledger/contracts';
import type { GlobalPosition, RecordedEvent } from '@ledger/event-store';

export interface DecodedEvent {
  readonly recorded: RecordedEvent;
  readonly event: LedgerEvent;
}

interface OpenFirstHalf {
  readonly decoded: DecodedEvent;
  /** The log position just before it: where a restarted reconciler must resume to see it again. */
  readonly before: GlobalPosition | null;
  /** Seen in an earlier batch than the one being taken. */
  carried: boolean;
}

/**
 * The first halves of pairs (a card decision and its transaction record, a transaction change and
 * its card adjustment) whose second half the reconciler has not seen yet in the log.
 *
 * The handler writes the second half right after the first, so it is normally in the same batch or,
 * when a batch boundary falls between the two, in the next one. A first half is therefore carried
 * into one more batch before it counts as overdue; only overdue ones are repaired, which costs a
 * stream read and a decision each, instead of one per pair that a boundary happened to split.
 */
export class UnmatchedFirstHalves {
  private readonly open = new Map<string, OpenFirstHalf>();

  get size(): number {
    return this.open.size;
  }

  /**
   * Takes the next batch in log order (`before` is the position the batch was read after) and
   * answers the first halves that are now overdue: carried from an earlier batch and still unmatched.
   */
  take(batch: readonly DecodedEvent[], before: GlobalPosition | null): DecodedEvent[] {
    // Within a batch the order of the two halves does not matter.
    const seen = new Set(batch.map(({ event, recorded }) => secondHalfKey(event, recorded)).filter((key) => key !== null));
    for (const open of this.open.values()) open.carried = true;
    let previous = before;
    for (const decoded of batch) {
      const key = firstHalfKey(decoded.event, decoded.recorded);
      if (key !== null && !seen.has(key)) this.open.set(key, { decoded, before: previous, carried: false });
      previous = decoded.recorded.position;
    }
    const overdue: DecodedEvent[] = [];
    for (const [key, open] of this.open) {
      if (seen.has(key)) this.open.delete(key);
      else if (open.carried) {
        overdue.push(open.decoded);
        this.open.delete(key);
      }
    }
    return overdue;
  }

  /** Marks the second halves found by a look past the last batch; they are not kept for later batches. */
  match(events: readonly DecodedEvent[]): void {
    for (const { event, recorded } of events) {
      const key = secondHalfKey(event, recorded);
      if (key !== null) this.open.delete(key);
    }
  }

  /** Every open first half, oldest first, leaving none. */
  drain(): DecodedEvent[] {
    const all = [...this.open.values()].map((open) => open.decoded);
    this.open.clear();
    return all;
  }

  /** The newest open first half (the last to settle), if any. */
  newest(): DecodedEvent | undefined {
    let last: OpenFirstHalf | undefined;
    for (const open of this.open.values()) last = open;
    return last?.decoded;
  }

  /**
   * Where the checkpoint may go after a batch ending at `end`: just before the oldest open first half,
   * so a restart reads it again, or `end` when none is open.
   */
  resumeFrom(end: GlobalPosition): GlobalPosition | null {
    const oldest = this.open.values().next();
    return oldest.done ? end : oldest.value.before;
  }

  clear(): void {
    this.open.clear();
  }
}

/** The key of the write an event calls for on the other stream (null: it calls for none). */
export function firstHalfKey(event: LedgerEvent, recorded: RecordedEvent): string | null {
  switch (event.type) {
    case 'CardAuthorizationApproved':
    case 'CardAuthorizationDeclined':
      return `authorization ${event.data.transactionToken}`;
    case 'TransactionVoided':
    case 'TransactionCleared':
    case 'TransactionAdvised':
    case 'TransactionReturnReversed':
      return `adjustment ${event.data.transactionToken} ${recorded.streamVersion}`;
    case 'TransactionReturned':
      return `return ${event.data.eventToken}`;
    default:
      return null;
  }
}

/** The key of the first half an event is the second half of (null: it is no second half). */
export function secondHalfKey(event: LedgerEvent, recorded: RecordedEvent): string | null {
  switch (event.type) {
    case 'TransactionAuthorized':
      return recorded.streamVersion === 0 ? `authorization ${event.data.transactionToken}` : null;
    case 'CardSpendAdjusted':
      return `adjustment ${event.data.transactionToken} ${event.data.transactionVersion}`;
    case 'CardReturnCredited':
      return `return ${event.data.eventToken}`;
    default:
      return null;
  }
}
