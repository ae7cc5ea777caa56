import { LRUCache } from 'lru-cache';
import type { GlobalPosition } from './event-store.port';

/**
 * What a stream folded to, as of one version: the state, and the chain head a next append links to.
 * Streams only ever grow, so a fold stays a true prefix of its stream; bringing it up to date means
 * reading the events after `version`, never the whole stream again.
 */
export interface StreamFold<State> {
  readonly state: State;
  /** Version of the last event folded in; -1 for a stream with no events. */
  readonly version: number;
  /** The last event's chain link (hash-chain.ts) and global position; null before the first event. */
  readonly head: ChainHead | null;
}

export interface ChainHead {
  readonly streamVersion: number;
  readonly hash: string;
  readonly position?: GlobalPosition;
}

/**
 * A bounded, least-recently-used memory of stream folds. It is only ever a starting point: every
 * fold is caught up by a read of the newer events, or, where a caller trusts it as it is, the append's
 * expected version refuses a decision taken on a stale fold and the pipeline decides again.
 *
 * On lru-cache rather than a Map re-inserted on every use: every authorization opens a new transaction
 * stream, so the cache is always full and evicting, and a Map's oldest key is found by iterating past
 * the deleted entries it keeps until it rehashes, so each eviction pays for every use before it.
 */
export class StreamFoldCache {
  /**
   * Per stream, its folds by folder: one stream may be folded two ways (a card for its decisions and
   * for its activity), and one must not push the other out. Streams are evicted least recently used.
   */
  private readonly folds: LRUCache<string, Map<object, StreamFold<unknown>>>;

  constructor(capacity = 5_000) {
    this.folds = new LRUCache({ max: capacity });
  }

  /** `folder` (the decider) tells apart two different folds of one stream. */
  get<State>(streamId: string, folder: object): StreamFold<State> | undefined {
    return this.folds.get(streamId)?.get(folder) as StreamFold<State> | undefined;
  }

  set<State>(streamId: string, folder: object, fold: StreamFold<State>): void {
    let entry = this.folds.get(streamId);
    if (!entry) this.folds.set(streamId, (entry = new Map()));
    const current = entry.get(folder);
    // Two commands racing on one stream: keep whichever saw more of it.
    if (current && current.version > fold.version) return;
    entry.set(folder, fold);
  }

  get size(): number {
    return this.folds.size;
  }
}
