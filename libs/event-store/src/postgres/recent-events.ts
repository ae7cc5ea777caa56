import { comparePositions, type GlobalPosition, type RecordedEvent } from '../event-store.port';

/**
 * The stretch of the log this process's subscriptions read last. In one process the projector, the
 * ledger tree and the Kafka publisher all follow the same log a little apart;
 * the first to read a stretch keeps it here and the others take it from memory, instead of each
 * reading and parsing every event from PostgreSQL again.
 *
 * Only what a read returned as ready is kept, and a read is contiguous from where it started, so the
 * stretch has no gaps: any position inside it can answer "what comes next" without PostgreSQL.
 * Events never change once written, so a kept event is never stale.
 */
export class RecentEvents {
  private events: RecordedEvent[] = [];
  /** The position the kept events follow; null when they start the log (never looked up, see indexAfter). */
  private start: GlobalPosition | null = null;

  constructor(private readonly capacity: number) {}

  /** Up to `limit` kept events right after `position`, or null when `position` is not in the kept stretch. */
  after(position: GlobalPosition | null, limit: number): RecordedEvent[] | null {
    const index = this.indexAfter(position);
    return index === null ? null : this.events.slice(index, index + limit);
  }

  /** Keeps what a read after `position` returned: ready events, contiguous from it, in log order. */
  add(position: GlobalPosition | null, read: readonly RecordedEvent[]): void {
    if (read.length === 0 || this.capacity === 0) return;
    const index = this.indexAfter(position);
    if (index === null) {
      // A reader behind the kept stretch does not evict it: the others are ahead, and it will catch up.
      if (this.events.length > 0 && this.isBefore(position)) return;
      this.start = position;
      this.events = read.slice(-this.capacity);
      if (read.length > this.capacity) this.start = read[read.length - this.capacity - 1].position;
      return;
    }
    // The read overlaps the kept stretch from `index` on; only what lies beyond its end is new.
    const overlap = this.events.length - index;
    for (let i = overlap; i < read.length; i++) this.events.push(read[i]);
    this.trim();
  }

  get size(): number {
    return this.events.length;
  }

  private trim(): void {
    // Drop in steps of a quarter, so trimming is an occasional copy rather than one per read.
    if (this.events.length <= this.capacity + (this.capacity >> 2)) return;
    const drop = this.events.length - this.capacity;
    this.start = this.events[drop - 1].position;
    this.events = this.events.slice(drop);
  }

  /**
   * Index of the first kept event after `position`; null when that is not known from memory. The
   * start of the log is never answered from memory: after a truncation (test suites, a restored
   * database) it is the one position a reader could share with events that are gone. A real position
   * names one event of one transaction, so it cannot match a kept event that is no longer there.
   */
  private indexAfter(position: GlobalPosition | null): number | null {
    if (this.events.length === 0 || position === null) return null;
    if (this.start !== null && comparePositions(position, this.start) === 0) return 0;
    return this.search(position);
  }

  private isBefore(position: GlobalPosition | null): boolean {
    return position === null || comparePositions(position, this.events[0].position) < 0;
  }

  /** Binary search for the kept event at exactly `position`: the index after it, or null. */
  private search(position: GlobalPosition): number | null {
    let low = 0;
    let high = this.events.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const order = comparePositions(this.events[middle].position, position);
      if (order === 0) return middle + 1;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return null;
  }
}
