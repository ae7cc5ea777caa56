import { EntryPositions } from './entry-positions';
import { SpendTally, spendAfterCredits, SpendWindow, windowStart } from './spend-window';

/** An amount that counts against a spend limit, at the moment it happened. */
export interface SpendEntry {
  readonly transactionToken: string;
  /**
   * Epoch milliseconds of the authorization (or of the return, for a credit), as Date.parse reads
   * the event's time, once, when it is folded. A time it cannot read (NaN) is kept as -Infinity:
   * either way the entry counts in no bounded window and only in FOREVER.
   */
  readonly at: number;
  /** Cents currently counted: the held or cleared amount; negative for a credit (a return). */
  readonly amount: number;
  /** Version of the transaction-stream event the amount reflects (0: the authorization or return). */
  readonly version: number;
}

/** Entries per leaf, and children per branch, of the tree below. */
const WIDTH = 32;
const BITS = 5;

/**
 * A run of consecutive entries in event order, summed up for spentIn: a leaf of WIDTH entries or a
 * branch of up to WIDTH runs. `net` and `lowest` are the run's SpendTally (net sum, lowest running
 * sum, never above 0), in doubles: they are exact while `magnitude` (the sum of the amounts' sizes,
 * which bounds every running sum inside the run) is a safe integer; a run past that is never taken
 * whole but read through its parts, down to the entries, in bigint. `earliest` and `latest` bound
 * the entries' times, so a window takes a run whole or skips it without looking inside, whatever
 * order the times come in.
 */
class SpendRun {
  constructor(
    readonly net: number,
    readonly lowest: number,
    readonly magnitude: number,
    readonly earliest: number,
    readonly latest: number,
    /** The entries, for the tail (the newest entries, beside the tree); null in the tree. */
    readonly entries: readonly SpendEntry[] | null,
    /** The runs, for a branch; null for a leaf. */
    readonly runs: readonly SpendRun[] | null,
    /**
     * For a branch, a table of its runs: each run's summary, so a changed branch is summed again
     * from one array instead of from objects spread over the heap; the latest time among runs 0..j
     * (never decreasing, so the first run a window reaches is found by halving); and the summary of
     * runs j..k-1, so a window that starts inside run j takes all the runs after it in one step. A
     * window's cost is then one run per level when times are in order.
     *
     * For a leaf in the tree, its entries themselves: their times, then amounts, then versions
     * (LEAF_AT, LEAF_AMOUNT, LEAF_VERSION), with their tokens beside. A leaf keeps no entry objects:
     * a card keeps every entry for good (SpendHistory says why), and an object per entry would be
     * most of a long history's heap, for entries that are read only when adjusted or listed. The
     * tail has none: it changes with every approval, and it is read from entries that are still
     * fresh in memory.
     */
    readonly table: Float64Array | null,
    /** For a leaf in the tree, its entries' transaction tokens in order (the table holds the rest); null otherwise. */
    readonly tokens: readonly string[] | null,
  ) {}

  static ofEntries(entries: readonly SpendEntry[]): SpendRun {
    let net = 0;
    let lowest = 0;
    let magnitude = 0;
    let earliest = Infinity;
    let latest = -Infinity;
    for (const entry of entries) {
      net += entry.amount;
      if (net < lowest) lowest = net;
      magnitude += Math.abs(entry.amount);
      if (entry.at < earliest) earliest = entry.at;
      if (entry.at > latest) latest = entry.at;
    }
    return new SpendRun(net, lowest, magnitude, earliest, latest, entries, null, null, null);
  }

  /**
   * A branch of these runs. `previous` is the table of a branch that differs only from run
   * `changedFrom` on (one that is being replaced or appended), whose rows before it still hold.
   */
  static ofRuns(runs: readonly SpendRun[], previous: Float64Array | null = null, changedFrom = 0): SpendRun {
    const k = runs.length;
    const table = previous === null ? new Float64Array(TABLE_FIELDS * WIDTH) : previous.slice();
    let reach = changedFrom === 0 ? -Infinity : table[REACH + changedFrom - 1];
    for (let j = changedFrom; j < k; j++) {
      const run = runs[j];
      table[NET + j] = run.net;
      table[LOWEST + j] = run.lowest;
      table[MAGNITUDE + j] = run.magnitude;
      table[EARLIEST + j] = run.earliest;
      if (run.latest > reach) reach = run.latest;
      table[REACH + j] = reach;
    }
    let net = 0;
    let lowest = 0;
    let magnitude = 0;
    let earliest = Infinity;
    for (let j = k - 1; j >= 0; j--) {
      lowest = Math.min(table[LOWEST + j], table[NET + j] + lowest);
      net += table[NET + j];
      magnitude += table[MAGNITUDE + j];
      if (table[EARLIEST + j] < earliest) earliest = table[EARLIEST + j];
      table[REST_NET + j] = net;
      table[REST_LOWEST + j] = lowest;
      table[REST_MAGNITUDE + j] = magnitude;
      table[REST_EARLIEST + j] = earliest;
    }
    return new SpendRun(net, lowest, magnitude, earliest, reach, null, runs, table, null);
  }

  /** This run of entries (the tail) as a leaf of the tree: the same run, its entries moved into a table. */
  asLeaf(): SpendRun {
    const entries = this.entries as readonly SpendEntry[];
    const table = new Float64Array(LEAF_FIELDS * WIDTH);
    const tokens: string[] = [];
    for (let index = 0; index < entries.length; index++) {
      table[LEAF_AT + index] = entries[index].at;
      table[LEAF_AMOUNT + index] = entries[index].amount;
      table[LEAF_VERSION + index] = entries[index].version;
      tokens.push(entries[index].transactionToken);
    }
    return new SpendRun(this.net, this.lowest, this.magnitude, this.earliest, this.latest, null, null, table, tokens);
  }

  /** A leaf of the tree with entry `index` replaced (its token stays: an entry is replaced only by its own transaction's). */
  withLeafEntry(index: number, entry: SpendEntry): SpendRun {
    const tokens = this.tokens as readonly string[];
    const table = (this.table as Float64Array).slice();
    table[LEAF_AT + index] = entry.at;
    table[LEAF_AMOUNT + index] = entry.amount;
    table[LEAF_VERSION + index] = entry.version;
    let net = 0;
    let lowest = 0;
    let magnitude = 0;
    let earliest = Infinity;
    let latest = -Infinity;
    for (let each = 0; each < tokens.length; each++) {
      const amount = table[LEAF_AMOUNT + each];
      const at = table[LEAF_AT + each];
      net += amount;
      if (net < lowest) lowest = net;
      magnitude += Math.abs(amount);
      if (at < earliest) earliest = at;
      if (at > latest) latest = at;
    }
    return new SpendRun(net, lowest, magnitude, earliest, latest, null, null, table, tokens);
  }

  /** Entry `index` of a leaf of the tree, rebuilt from its table. */
  leafEntry(index: number): SpendEntry {
    const table = this.table as Float64Array;
    return { transactionToken: (this.tokens as readonly string[])[index], at: table[LEAF_AT + index], amount: table[LEAF_AMOUNT + index], version: table[LEAF_VERSION + index] };
  }

  /** This run (a leaf) with one more entry: the tail's way of growing without summing it again. */
  withLast(entry: SpendEntry): SpendRun {
    const net = this.net + entry.amount;
    return new SpendRun(
      net,
      net < this.lowest ? net : this.lowest,
      this.magnitude + Math.abs(entry.amount),
      entry.at < this.earliest ? entry.at : this.earliest,
      entry.at > this.latest ? entry.at : this.latest,
      [...(this.entries as readonly SpendEntry[]), entry],
      null,
      null,
      null,
    );
  }
}

/** Where a branch table (SpendRun.table) keeps its columns: column + run index. */
const NET = 0;
const LOWEST = WIDTH;
const MAGNITUDE = 2 * WIDTH;
const EARLIEST = 3 * WIDTH;
const REACH = 4 * WIDTH;
const REST_NET = 5 * WIDTH;
const REST_LOWEST = 6 * WIDTH;
const REST_MAGNITUDE = 7 * WIDTH;
const REST_EARLIEST = 8 * WIDTH;
const TABLE_FIELDS = 9;

/** Where a leaf's table (SpendRun.table) keeps its columns: column + entry index. */
const LEAF_AT = 0;
const LEAF_AMOUNT = WIDTH;
const LEAF_VERSION = 2 * WIDTH;
const LEAF_FIELDS = 3;

const EMPTY_RUN = SpendRun.ofEntries([]);

/**
 * What a card counts against its spend limit: its spend entries in card-event order (the order a
 * credit's rule depends on, spend-window.ts), one per transaction token, and what any window of them
 * adds up to now.
 *
 * Persistent: every change returns a new history and leaves this one as it was, sharing all but a
 * few small arrays with it, so a fold is never copied and a state decided on twice (a cached fold, a
 * retry) still answers as it did. Entries sit in a tree of WIDTH-wide runs in event order with the
 * newest (up to WIDTH) in a tail beside it, as in a persistent vector: an approval appends to the
 * tail (a whole leaf joins the tree once every WIDTH approvals), an adjustment replaces one entry and
 * the runs above it, and a window's spend takes whole runs by their summaries and opens only those
 * that straddle its start.
 *
 * The tree is two: the settled tree, whose children are full runs of WIDTH leaves, and the recent
 * run of fewer than WIDTH leaves after it, which joins the settled tree whole once it is full. So
 * what a decision touches is the size of a new card's: leaves join a one-level run (a long history
 * does not copy a path down its tree's levels at every leaf), and the settled tree, which changes
 * once every WIDTH * WIDTH approvals, answers a window from its memo (treeTally). A card's times come in order (business time only moves forward), and then
 * that is one run per level: a card with a long history decides in about the time of a new one,
 * whichever window its limit has. Nothing relies on that order: an entry out of it (a return dated
 * before spend folded earlier) only makes the runs around it straddle more windows, and opened.
 *
 * Every entry is kept: any transaction may still be adjusted (CardSpendAdjusted, however old), a
 * return is refused twice by its token, and a duration changed to FOREVER counts the whole history.
 */
export class SpendHistory {
  private constructor(
    /** Entries in the settled tree and the recent run: all but the tail's, a multiple of WIDTH. */
    private readonly treeSize: number,
    /** The settled tree's root, or null until a first WIDTH * WIDTH entries have joined it. */
    private readonly root: SpendRun | null,
    /** Levels of branches above the settled tree's leaves (at least 1: its children are full runs of leaves). */
    private readonly height: number,
    /** The leaves after the settled tree's, 1 to WIDTH - 1 of them under one branch, or null when there are none. */
    private readonly recent: SpendRun | null,
    /** The newest entries, 1 to WIDTH of them (none only in an empty history). */
    private readonly tail: SpendRun,
    /** Token -> position; null until the first entry (so no history shares one with an unrelated card). */
    private readonly positions: EntryPositions | null,
  ) {}

  static readonly EMPTY = new SpendHistory(0, null, 0, null, EMPTY_RUN, null);

  /** A history of these entries in this order, as a fold of their events would give (a token seen again replaces its entry in place). */
  static of(entriesInEventOrder: Iterable<SpendEntry>): SpendHistory {
    let history = SpendHistory.EMPTY;
    for (const entry of entriesInEventOrder) history = history.withEntry(entry);
    return history;
  }

  get size(): number {
    return this.treeSize + this.tailLength;
  }

  private get tailLength(): number {
    return (this.tail.entries as readonly SpendEntry[]).length;
  }

  get(transactionToken: string): SpendEntry | undefined {
    const position = this.positions?.find(transactionToken, this.size);
    if (position === undefined) return undefined;
    const entry = this.entryAt(position);
    // The index's rule (entry-positions.ts) makes this hold; were it ever broken, a wrong entry must not be decided on.
    if (entry.transactionToken !== transactionToken) throw new Error(`Spend history: ${transactionToken} is indexed at ${position}, which holds ${entry.transactionToken}`);
    return entry;
  }

  has(transactionToken: string): boolean {
    return this.get(transactionToken) !== undefined;
  }

  /** A new transaction's entry goes last; an entry for a token already here replaces it where it stands. */
  withEntry(given: SpendEntry): SpendHistory {
    const entry = Number.isNaN(given.at) ? { ...given, at: -Infinity } : given;
    const position = this.positions?.find(entry.transactionToken, this.size);
    if (position !== undefined) return this.withEntryAt(position, entry);
    const size = this.size;
    const positions = (this.positions ?? EntryPositions.of([])).withAdded(entry.transactionToken, size, () => this.tokens());
    if (this.tailLength < WIDTH) return new SpendHistory(this.treeSize, this.root, this.height, this.recent, this.tail.withLast(entry), positions);
    const leaf = this.tail.asLeaf();
    const recent = this.recent === null ? SpendRun.ofRuns([leaf]) : SpendRun.ofRuns([...(this.recent.runs as readonly SpendRun[]), leaf], this.recent.table, this.recentLeaves);
    const tail = SpendRun.ofEntries([entry]);
    if (this.recentLeaves + 1 < WIDTH) return new SpendHistory(this.treeSize + WIDTH, this.root, this.height, recent, tail, positions);
    const [root, height] = this.settledWith(recent);
    return new SpendHistory(this.treeSize + WIDTH, root, height, null, tail, positions);
  }

  /**
   * What counts against a limit of this window now (spend-window.ts has the rule): the entries at
   * or after the window's start, in event order, each credit undoing only the window's spend before
   * it. Exact at any size: runs whose sums a double cannot hold are added in bigint.
   */
  spentIn(window: SpendWindow, now: Date): bigint {
    if (window === 'TRANSACTION') return 0n;
    const start = windowStart(window, now)?.getTime() ?? -Infinity;
    // An invalid clock starts no window any entry is in (every comparison with NaN is false).
    if (Number.isNaN(start)) return 0n;
    const tally = new WindowTally(start);
    if (this.root !== null) tally.addRemembered(this.root);
    if (this.recent !== null) tally.addRemembered(this.recent);
    tally.add(this.tail);
    return spendAfterCredits(tally.result());
  }

  /** The entries in event order. */
  *entries(): IterableIterator<SpendEntry> {
    if (this.root !== null) yield* entriesOf(this.root);
    if (this.recent !== null) yield* entriesOf(this.recent);
    yield* this.tail.entries as readonly SpendEntry[];
  }

  private get recentLeaves(): number {
    return this.recent === null ? 0 : (this.recent.runs as readonly SpendRun[]).length;
  }

  /** Entries in the settled tree: a multiple of WIDTH * WIDTH. */
  private get settledSize(): number {
    return this.treeSize - this.recentLeaves * WIDTH;
  }

  private *tokens(): IterableIterator<string> {
    for (const entry of this.entries()) yield entry.transactionToken;
  }

  private entryAt(position: number): SpendEntry {
    if (position >= this.treeSize) return (this.tail.entries as readonly SpendEntry[])[position - this.treeSize];
    // The recent run starts at a multiple of WIDTH * WIDTH, so a position's bits below that find its leaf there as in the tree.
    if (position >= this.settledSize) return ((this.recent as SpendRun).runs as readonly SpendRun[])[(position >>> BITS) & (WIDTH - 1)].leafEntry(position & (WIDTH - 1));
    let run = this.root as SpendRun;
    for (let level = this.height; level > 0; level--) run = (run.runs as readonly SpendRun[])[(position >>> (BITS * level)) & (WIDTH - 1)];
    return run.leafEntry(position & (WIDTH - 1));
  }

  private withEntryAt(position: number, entry: SpendEntry): SpendHistory {
    if (position >= this.treeSize) {
      const entries = [...(this.tail.entries as readonly SpendEntry[])];
      entries[position - this.treeSize] = entry;
      return new SpendHistory(this.treeSize, this.root, this.height, this.recent, SpendRun.ofEntries(entries), this.positions);
    }
    if (position >= this.settledSize) return new SpendHistory(this.treeSize, this.root, this.height, replaced(this.recent as SpendRun, 1, position, entry), this.tail, this.positions);
    return new SpendHistory(this.treeSize, replaced(this.root as SpendRun, this.height, position, entry), this.height, this.recent, this.tail, this.positions);
  }

  /** The settled tree with a full recent run (WIDTH leaves) added after its last one: a new level on top when the tree is full. */
  private settledWith(run: SpendRun): [SpendRun, number] {
    if (this.root === null) return [run, 1];
    const settled = this.settledSize;
    if (settled === WIDTH ** (this.height + 1)) return [SpendRun.ofRuns([this.root, pathTo(run, this.height - 1)]), this.height + 1];
    return [appended(this.root, this.height, settled, run), this.height];
  }
}

/** `run` under `levels` levels of one-run branches. */
function pathTo(run: SpendRun, levels: number): SpendRun {
  return levels === 0 ? run : SpendRun.ofRuns([pathTo(run, levels - 1)]);
}

/**
 * The branch with `run` (a full run of WIDTH leaves) as the entries from `position` on: a multiple
 * of WIDTH * WIDTH, the tree's end. `height` is the branch's; the run goes in at height 1.
 */
function appended(branch: SpendRun, height: number, position: number, run: SpendRun): SpendRun {
  const runs = branch.runs as readonly SpendRun[];
  const index = (position >>> (BITS * height)) & (WIDTH - 1);
  const child = height === 2 || index >= runs.length ? pathTo(run, height - 2) : appended(runs[index], height - 1, position, run);
  const next = runs.slice(0, index);
  next.push(child);
  return SpendRun.ofRuns(next, branch.table, index);
}

function replaced(run: SpendRun, height: number, position: number, entry: SpendEntry): SpendRun {
  if (height === 0) return run.withLeafEntry(position & (WIDTH - 1), entry);
  const runs = [...(run.runs as readonly SpendRun[])];
  const index = (position >>> (BITS * height)) & (WIDTH - 1);
  runs[index] = replaced(runs[index], height - 1, position, entry);
  return SpendRun.ofRuns(runs, run.table, index);
}

function* entriesOf(run: SpendRun): IterableIterator<SpendEntry> {
  if (run.runs !== null) for (const child of run.runs) yield* entriesOf(child);
  else for (let index = 0; index < (run.tokens as readonly string[]).length; index++) yield run.leafEntry(index);
}

/**
 * A run's tally in a window, and the starts it holds for. Which entries a window counts depends only
 * on which times are at or after its start, so the tally taken for one start holds for every start
 * after the latest time before it and up to the earliest time at or after it. A card decides many
 * times between two of its own entries' times (each decision a moment later than the last); its
 * settled tree changes once every WIDTH * WIDTH approvals and its recent run once every WIDTH: most
 * decisions find both tallies here and add only the tail's, so a long history is not walked down
 * again on every decision, and its entries before the window are not looked at again either.
 */
interface WindowMemo {
  readonly before: number;
  readonly after: number;
  /** The run's own tally in the window (SpendRun's fields say what each is), exact in doubles. */
  readonly net: number;
  readonly lowest: number;
  readonly magnitude: number;
}

/**
 * The latest memo of each settled tree and recent run. Kept beside the runs rather than in them: a
 * run is never changed once built, and a memo is a function of the run and the start alone (not of
 * the window's name), so it is a cache that no answer can tell from a walk (the persistence and
 * reference specs hold either way). One per run: a card asks for the window of its own limit's
 * duration. Weak, so a run no history holds any longer takes its memo with it.
 */
const windowMemos = new WeakMap<SpendRun, WindowMemo>();


/**
 * A window's tally, built run by run in event order: in doubles while every sum it holds is a safe
 * integer (the sizes it added, `magnitude`, say so), in bigint from the first run that could pass it.
 */
class WindowTally {
  private net = 0;
  private lowest = 0;
  private magnitude = 0;
  private exact: { net: bigint; lowest: bigint } | null = null;
  /** The latest time before the start, and the earliest at or after it, among the entries added so far (WindowMemo). */
  private before = -Infinity;
  private after = Infinity;

  constructor(private readonly start: number) {}

  /**
   * Adds a run of the settled tree or the recent run: from its memo when the memo holds for this
   * start, else tallied on its own, kept as its memo, and added. A run whose sums doubles cannot
   * hold is walked every time (no memo).
   */
  addRemembered(run: SpendRun): void {
    // A window with no start (FOREVER) takes a run whole in one step: nothing to remember.
    if (this.start === -Infinity) return this.add(run);
    const memo = windowMemos.get(run);
    if (memo !== undefined && memo.before < this.start && this.start <= memo.after) return this.addTally(memo.net, memo.lowest, memo.magnitude);
    const own = new WindowTally(this.start);
    own.add(run);
    if (own.exact !== null) return this.add(run);
    windowMemos.set(run, { before: own.before, after: own.after, net: own.net, lowest: own.lowest, magnitude: own.magnitude });
    this.addTally(own.net, own.lowest, own.magnitude);
  }

  add(run: SpendRun): void {
    if (run.latest < this.start) {
      if (run.latest > this.before) this.before = run.latest;
      return;
    }
    if (run.earliest >= this.start && run.magnitude <= Number.MAX_SAFE_INTEGER) {
      if (run.earliest < this.after) this.after = run.earliest;
      return this.addTally(run.net, run.lowest, run.magnitude);
    }
    if (run.runs !== null) return this.addParts(run.runs, run.table as Float64Array);
    if (run.table !== null) this.addLeaf(run.table, (run.tokens as readonly string[]).length);
    else this.addEntries(run.entries as readonly SpendEntry[]);
  }

  /** A tree leaf's entries in the window, from its table (SpendRun.table); one by one in bigint when doubles cannot hold them. */
  private addLeaf(table: Float64Array, count: number): void {
    let net = 0;
    let lowest = 0;
    let magnitude = 0;
    for (let index = 0; index < count; index++) {
      const at = table[LEAF_AT + index];
      if (!(at >= this.start)) {
        if (at > this.before) this.before = at;
        continue;
      }
      if (at < this.after) this.after = at;
      const amount = table[LEAF_AMOUNT + index];
      net += amount;
      if (net < lowest) lowest = net;
      magnitude += Math.abs(amount);
    }
    if (magnitude <= Number.MAX_SAFE_INTEGER) return this.addTally(net, lowest, magnitude);
    for (let index = 0; index < count; index++) {
      const amount = table[LEAF_AMOUNT + index];
      if (table[LEAF_AT + index] >= this.start) this.addTally(amount, Math.min(0, amount), Math.abs(amount));
    }
  }

  /** A leaf's entries in the window, summed first on their own: in doubles when they can be, else one by one. */
  private addEntries(entries: readonly SpendEntry[]): void {
    let net = 0;
    let lowest = 0;
    let magnitude = 0;
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index];
      if (!(entry.at >= this.start)) {
        if (entry.at > this.before) this.before = entry.at;
        continue;
      }
      if (entry.at < this.after) this.after = entry.at;
      net += entry.amount;
      if (net < lowest) lowest = net;
      magnitude += Math.abs(entry.amount);
    }
    if (magnitude <= Number.MAX_SAFE_INTEGER) return this.addTally(net, lowest, magnitude);
    for (const entry of entries) if (entry.at >= this.start) this.addTally(entry.amount, Math.min(0, entry.amount), Math.abs(entry.amount));
  }

  /** A branch the window starts inside: runs before the first that reaches the start are skipped, and from the first whose rest lies wholly in the window, the rest in one step. */
  private addParts(runs: readonly SpendRun[], table: Float64Array): void {
    const k = runs.length;
    let low = 0;
    let high = k - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (table[REACH + middle] >= this.start) high = middle;
      else low = middle + 1;
    }
    if (low > 0 && table[REACH + low - 1] > this.before) this.before = table[REACH + low - 1];
    for (let j = low; j < k; j++) {
      if (table[REST_EARLIEST + j] >= this.start && table[REST_MAGNITUDE + j] <= Number.MAX_SAFE_INTEGER) {
        if (table[REST_EARLIEST + j] < this.after) this.after = table[REST_EARLIEST + j];
        return this.addTally(table[REST_NET + j], table[REST_LOWEST + j], table[REST_MAGNITUDE + j]);
      }
      this.add(runs[j]);
    }
  }

  result(): SpendTally {
    return this.exact ?? { net: BigInt(this.net), lowest: BigInt(this.lowest) };
  }

  /** Appends a tally of the amounts that follow (`lowest` relative to their own start). */
  private addTally(net: number, lowest: number, magnitude: number): void {
    if (this.exact === null && this.magnitude + magnitude <= Number.MAX_SAFE_INTEGER) {
      if (this.net + lowest < this.lowest) this.lowest = this.net + lowest;
      this.net += net;
      this.magnitude += magnitude;
      return;
    }
    const exact = (this.exact ??= { net: BigInt(this.net), lowest: BigInt(this.lowest) });
    const lowestAfter = exact.net + BigInt(lowest);
    if (lowestAfter < exact.lowest) exact.lowest = lowestAfter;
    exact.net += BigInt(net);
  }
}
