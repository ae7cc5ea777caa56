import type { AtomicAppendResult, StreamAppend } from '../event-store.port';

/** One caller's atomic append, already serialised, and how its streams are touched. */
export interface AppendGroup {
  readonly appends: readonly StreamAppend[];
  /** The group's rows as the batch statement unpacks them: a JSON array, one element per stream. */
  readonly json: string;
}

/** What one group of a batch came to: its results, or the error its caller alone would have had. */
export type GroupOutcome = { readonly results: AtomicAppendResult[] } | { readonly error: unknown };

/**
 * Sends groups as one statement and answers each group in the order given. A rejection reaches
 * every caller of the batch (the database or the connection failed the statement as a whole).
 */
export type SendGroups = (groups: readonly AppendGroup[]) => Promise<GroupOutcome[]>;

interface Waiting {
  readonly group: AppendGroup;
  readonly resolve: (results: AtomicAppendResult[]) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit, leader/follower style: at most one batch statement is in flight. An append that finds
 * none in flight is sent at once, alone; appends that arrive while one is in flight wait for it and
 * then go together, so under load many decisions share one statement, one commit and one WAL flush,
 * and a lone decision never waits on a timer.
 *
 * Groups in one statement are all checked against the same snapshot, so a batch never holds two
 * groups of which one writes a stream the other writes or checks: the later one waits for the next
 * batch and is then decided against what the earlier one wrote, as it would have been sent alone.
 * Groups that only check the same stream (every authorization of a program checks its version) go
 * together.
 */
export class GroupCommit {
  private readonly waiting: Waiting[] = [];
  private inFlight = false;

  constructor(
    private readonly send: SendGroups,
    private readonly maxGroups: number,
  ) {
    if (!Number.isInteger(maxGroups) || maxGroups < 1) throw new RangeError(`maxGroups must be a positive integer, got ${maxGroups}`);
  }

  submit(group: AppendGroup): Promise<AtomicAppendResult[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ group, resolve, reject });
      if (!this.inFlight) void this.lead();
    });
  }

  /** Sends batches until nobody waits; whoever finds no batch in flight becomes the leader. */
  private async lead(): Promise<void> {
    this.inFlight = true;
    try {
      while (this.waiting.length > 0) await this.sendBatch(takeBatch(this.waiting, this.maxGroups));
    } finally {
      this.inFlight = false;
    }
  }

  private async sendBatch(batch: readonly Waiting[]): Promise<void> {
    let outcomes: GroupOutcome[];
    try {
      outcomes = await this.send(batch.map((waiting) => waiting.group));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i];
      if ('results' in outcome) waiting.resolve(outcome.results);
      else waiting.reject(outcome.error);
    });
  }
}

/**
 * Removes from `waiting` and returns, oldest first, up to `max` groups that can share a statement:
 * a stream one of them writes is touched by no other. Groups left out keep their places.
 */
export function takeBatch<T extends { readonly group: AppendGroup }>(waiting: T[], max: number): T[] {
  const touched = new Map<string, 'writes' | 'checks'>();
  const batch: T[] = [];
  const left: T[] = [];
  for (const candidate of waiting) {
    if (batch.length < max && fitsBeside(candidate.group, touched)) {
      batch.push(candidate);
      for (const append of candidate.group.appends) {
        if (append.events.length > 0 || !touched.has(append.streamId)) touched.set(append.streamId, append.events.length > 0 ? 'writes' : 'checks');
      }
    } else {
      left.push(candidate);
    }
  }
  waiting.splice(0, waiting.length, ...left);
  return batch;
}

function fitsBeside(group: AppendGroup, touched: ReadonlyMap<string, 'writes' | 'checks'>): boolean {
  return group.appends.every((append) => {
    const other = touched.get(append.streamId);
    return other === undefined || (other === 'checks' && append.events.length === 0);
  });
}
