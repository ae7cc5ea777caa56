import { TokenFilter } from './token-filter';

/**
 * Where each transaction's spend entry stands in a card's event order: transaction token -> position.
 *
 * Histories evolved from one another share one index instead of each copying it (a copy per event
 * would cost the whole history on every approval). Sharing is safe because the index only ever
 * grows at its end and a history only reads below its own length:
 *
 * - A history of `length` entries asks `find(token, length)` and sees only positions below `length`.
 * - A token is added at position `length` only by a history whose length equals the index's `next`
 *   (it is the longest history on this index, its tip). Its token is new to it, and no key holds a
 *   position at or past `next`, so an added key never replaces one: every key keeps its position
 *   for good, and the keys below `length` are exactly the tokens of that history's own entries.
 * - A history that is not the tip (its parent was already evolved further, say a fold decided on
 *   twice, or a retry on a cached fold) branches: a new index over the first `length` positions of
 *   this one, with its own keys from there on. Nothing it adds is seen by the other branch.
 *
 * An entry adjusted in place keeps its position, so adjustments never touch the index.
 */
export class EntryPositions {
  private readonly own = new Map<string, number>();
  /** Fronts `own` once it is large, where a Map's "not here" is slow (token-filter.ts). */
  private filter: TokenFilter | null = null;
  /** The next position this index will hand out: one past the longest history that uses it. */
  private next: number;
  /** Indexes looked through before a token is known to be new; kept short (MAX_DEPTH). */
  private readonly depth: number;

  private constructor(
    /** The positions below `baseLength` come from this index (a branch's trunk), or none. */
    private readonly base: EntryPositions | null,
    private readonly baseLength: number,
  ) {
    this.next = baseLength;
    this.depth = base === null ? 0 : base.depth + 1;
  }

  /** An index holding exactly these tokens, at their places in the sequence. */
  static of(tokensInEventOrder: Iterable<string>): EntryPositions {
    const positions = new EntryPositions(null, 0);
    for (const token of tokensInEventOrder) positions.add(token);
    return positions;
  }

  /** The token's position in a history of `length` entries that uses this index, or undefined when it has none. */
  find(token: string, length: number): number | undefined {
    if (this.filter === null || this.filter.mayHold(token)) {
      const position = this.own.get(token);
      if (position !== undefined) return position < length ? position : undefined;
    }
    return this.base?.find(token, Math.min(length, this.baseLength));
  }

  /**
   * The index of a history of `length` entries once `token` (not among them) is added at position
   * `length`: this index when that history is its tip, else a branch of it. `tokensInEventOrder`
   * rebuilds a flat index when branches of branches would make look-ups long.
   */
  withAdded(token: string, length: number, tokensInEventOrder: () => Iterable<string>): EntryPositions {
    if (this.next === length) {
      this.add(token);
      return this;
    }
    const grown = this.depth >= MAX_DEPTH ? EntryPositions.of(tokensInEventOrder()) : new EntryPositions(this, length);
    grown.add(token);
    return grown;
  }

  /** The token at the next position. */
  private add(token: string): void {
    this.own.set(token, this.next++);
    if (this.filter !== null && !this.filter.full) this.filter.add(token);
    else if (this.own.size >= FILTERED_FROM) this.filter = filterOf(this.own.keys(), 2 * this.own.size);
  }
}

/** Branches a look-up may pass through; a deeper branch is rebuilt flat, once per this many branchings. */
const MAX_DEPTH = 4;

/** Below this many tokens a Map answers "not here" from cache, faster than the filter's hash. */
const FILTERED_FROM = 4_096;

function filterOf(tokens: Iterable<string>, capacity: number): TokenFilter {
  const filter = new TokenFilter(capacity);
  for (const token of tokens) filter.add(token);
  return filter;
}
