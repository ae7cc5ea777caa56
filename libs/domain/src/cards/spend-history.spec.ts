import fc from 'fast-check';
import { SpendEntry, SpendHistory } from './spend-history';
import { SpendWindow, windowStart } from './spend-window';

const at = (iso: string) => new Date(iso);
const entry = (transactionToken: string, amount: number, when: string, version = 0): SpendEntry => ({ transactionToken, at: Date.parse(when), amount, version });
/** A history of these amounts (negative: a return) at these times, in this order. */
const historyOf = (...entries: [amount: number, when: string][]): SpendHistory =>
  SpendHistory.of(entries.map(([amount, when], index) => entry(`txn-${index}`, amount, when)));
const foreverSpendOf = (amounts: readonly number[]): bigint => historyOf(...amounts.map((amount): [number, string] => [amount, '2026-11-01T00:00:00.000Z'])).spentIn('FOREVER', at('2026-11-22T10:15:30.000Z'));

describe('spend history', () => {
  describe('spentIn: a credit undoes only spend made before it', () => {
    /** The rule as written in docs/decisions.md: a running total in event order, clamped at zero at each credit. */
    const clampedRunningTotal = (amounts: readonly number[]): bigint =>
      amounts.reduce((total, amount) => {
        const next = total + BigInt(amount);
        return amount < 0 && next < 0n ? 0n : next;
      }, 0n);

    it.each([
      ['spend only', [300, 200], 500n],
      ['spend, then a smaller return', [700, -300], 400n],
      ['spend, then a larger return: frees that spend and no more', [100, -500], 0n],
      ['a return, then spend: the return frees nothing', [-5000, 600], 600n],
      ['a return larger than the spend before it, then spend', [300, -5000, 200], 200n],
      ['two returns, each undoing only what preceded it', [500, -200, -400, 100, -50], 50n],
      ['nothing', [], 0n],
    ])('%s', (_case, amounts, expected) => {
      expect(foreverSpendOf(amounts)).toBe(expected);
      expect(clampedRunningTotal(amounts)).toBe(expected);
    });

    it('equals the clamped running total for any sequence of spends and credits, however many (across the tree\'s leaves and levels)', () => {
      const amount = fc.oneof(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }));
      fc.assert(
        fc.property(fc.array(amount, { maxLength: 1200 }), (amounts) => {
          expect(foreverSpendOf(amounts)).toBe(clampedRunningTotal(amounts));
        }),
        { numRuns: 60 },
      );
    });

    it('is exact past 2^53, where doubles round (2^53 - 1 + 2 - (2^53 - 1) is 2, not 1)', () => {
      const max = Number.MAX_SAFE_INTEGER;
      expect(foreverSpendOf([max, 2, -max])).toBe(2n);
      expect(max + 2 - max).toBe(1); // what a double total would have said
      expect(foreverSpendOf([max, max, max])).toBe(27021597764222973n);
    });

    it('is exact past 2^53 inside a long history too, where sums are kept per run of entries', () => {
      const max = Number.MAX_SAFE_INTEGER;
      const amounts = [...Array.from({ length: 2000 }, () => 1), max, 2, -max, ...Array.from({ length: 2000 }, () => 1), max];
      expect(foreverSpendOf(amounts)).toBe(clampedRunningTotal(amounts));
    });
  });

  describe('spentIn a window', () => {
    const now = at('2026-11-22T10:15:30.000Z');

    it.each([
      { title: 'counts nothing for TRANSACTION: every authorization stands alone', window: 'TRANSACTION', entries: historyOf([900, '2026-11-22T10:00:00.000Z']), total: 0n },
      {
        title: 'counts MONTHLY entries from the start of the window on, the boundary included',
        window: 'MONTHLY',
        entries: historyOf([100, '2026-10-22T10:15:30.000Z'], [200, '2026-10-22T10:15:29.999Z'], [400, '2026-11-22T10:15:30.000Z']),
        total: 500n,
      },
      { title: 'counts WEEKLY entries of the last seven days, the boundary included', window: 'WEEKLY', entries: historyOf([100, '2026-11-15T10:15:30.000Z'], [200, '2026-11-15T10:15:29.999Z']), total: 100n },
      { title: 'counts ANNUALLY entries of the current calendar year only', window: 'ANNUALLY', entries: historyOf([100, '2025-12-31T23:59:59.999Z'], [200, '2026-01-01T00:00:00.000Z']), total: 200n },
      { title: 'counts FOREVER entries of any age', window: 'FOREVER', entries: historyOf([100, '2001-01-01T00:00:00.000Z'], [200, '2026-11-22T00:00:00.000Z']), total: 300n },
      { title: 'lets a return in the window reduce what was spent before it', window: 'MONTHLY', entries: historyOf([700, '2026-11-01T00:00:00.000Z'], [-300, '2026-11-02T00:00:00.000Z']), total: 400n },
      { title: 'ignores a return made before the window', window: 'MONTHLY', entries: historyOf([700, '2026-11-01T00:00:00.000Z'], [-300, '2026-10-01T00:00:00.000Z']), total: 700n },
      {
        title: 'lets a return in the window undo nothing of spend from before the window, and nothing that follows it',
        window: 'MONTHLY',
        entries: historyOf([900, '2026-10-01T00:00:00.000Z'], [-900, '2026-11-01T00:00:00.000Z'], [400, '2026-11-02T00:00:00.000Z']),
        total: 400n,
      },
      {
        title: 'counts an entry whose time cannot be read in FOREVER only, as Date.parse\'s NaN compares',
        window: 'FOREVER',
        entries: historyOf([100, 'not a time'], [200, '2026-11-22T00:00:00.000Z']),
        total: 300n,
      },
      { title: 'and in no bounded window', window: 'DAILY', entries: historyOf([100, 'not a time'], [200, '2026-11-22T00:00:00.000Z']), total: 200n },
    ] as const)('$title', ({ window, entries, total }) => {
      expect(entries.spentIn(window, now)).toBe(total);
    });

    it('follows event order, not the entries\' times', () => {
      expect(historyOf([600, '2026-11-20T00:00:00.000Z'], [-600, '2026-11-19T00:00:00.000Z']).spentIn('FOREVER', now)).toBe(0n);
      expect(historyOf([-600, '2026-11-19T00:00:00.000Z'], [600, '2026-11-20T00:00:00.000Z']).spentIn('FOREVER', now)).toBe(600n);
    });

    it.each(['WEEKLY', 'MONTHLY', 'ANNUALLY', 'FOREVER'] as const)('is never negative, and a return frees no room for later spend (%s)', (window) => {
      expect(historyOf([100, '2026-11-20T00:00:00.000Z'], [-500, '2026-11-21T00:00:00.000Z']).spentIn(window, now)).toBe(0n);
      expect(historyOf([-500, '2026-11-20T00:00:00.000Z'], [100, '2026-11-21T00:00:00.000Z']).spentIn(window, now)).toBe(100n);
    });

    it('is zero without entries', () => {
      expect(SpendHistory.EMPTY.spentIn('FOREVER', now)).toBe(0n);
    });

    it('is zero in a bounded window on an invalid clock, where no time is at or after the start', () => {
      expect(historyOf([100, '2026-11-20T00:00:00.000Z']).spentIn('DAILY', new Date(Number.NaN))).toBe(0n);
    });

    it('counts an entry from long ago that lands among this month\'s, where event order puts it (times out of order)', () => {
      const days = Array.from({ length: 3000 }, (_, index): [number, string] => [1, new Date(Date.UTC(2026, 10, 1) + index * 60_000).toISOString()]);
      const history = historyOf(...days.slice(0, 1500), [-2000, '2020-01-01T00:00:00.000Z'], [700, '2026-11-20T00:00:00.000Z'], ...days.slice(1500));
      // The return of 2020 is outside the month: it undoes nothing; the 700 counts.
      expect(history.spentIn('MONTHLY', now)).toBe(3700n);
      // FOREVER sees the return: it undoes the 1500 before it, not the 700 and the 1500 after it.
      expect(history.spentIn('FOREVER', now)).toBe(2200n);
    });
  });

  describe('entries by transaction', () => {
    it('puts a new transaction last and replaces one it holds where it stands', () => {
      const history = historyOf([100, '2026-11-01T00:00:00.000Z'], [200, '2026-11-02T00:00:00.000Z']).withEntry(entry('txn-0', 50, '2026-11-01T00:00:00.000Z', 3));
      expect([...history.entries()].map((kept) => [kept.transactionToken, kept.amount, kept.version])).toEqual([
        ['txn-0', 50, 3],
        ['txn-1', 200, 0],
      ]);
      expect(history.get('txn-0')).toEqual(entry('txn-0', 50, '2026-11-01T00:00:00.000Z', 3));
      expect(history.has('txn-2')).toBe(false);
      expect(history.size).toBe(2);
    });

    it('replaces an entry deep in a long history where it stands, and the windows see the new amount', () => {
      let history = SpendHistory.EMPTY;
      for (let index = 0; index < 5000; index++) history = history.withEntry(entry(`txn-${index}`, 10, new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString()));
      const adjusted = history.withEntry({ ...(history.get('txn-17') as SpendEntry), amount: 0, version: 1 });
      expect(adjusted.spentIn('FOREVER', at('2026-11-22T00:00:00.000Z'))).toBe(49_990n);
      expect([...adjusted.entries()][17]).toMatchObject({ transactionToken: 'txn-17', amount: 0, version: 1 });
      expect(history.spentIn('FOREVER', at('2026-11-22T00:00:00.000Z'))).toBe(50_000n);
    });
  });

  describe('long histories: the settled tree, the recent run beside it, and the tail', () => {
    /** What any window counts, entry by entry: the reference the tree must agree with. */
    const plainSpentIn = (entries: readonly SpendEntry[], window: SpendWindow, now: Date): bigint => {
      if (window === 'TRANSACTION') return 0n;
      const start = windowStart(window, now)?.getTime() ?? -Infinity;
      let net = 0n;
      let lowest = 0n;
      for (const kept of entries) {
        if (!(kept.at >= start)) continue;
        net += BigInt(kept.amount);
        if (net < lowest) lowest = net;
      }
      return net - lowest;
    };
    const windows: readonly SpendWindow[] = ['DAILY', 'WEEKLY', 'MONTHLY', 'ANNUALLY', 'FOREVER'];

    it('counts every window as the entries do, whatever their number, with entries replaced in every part and times now and then out of order', () => {
      fc.assert(
        fc.property(fc.integer({ min: 900, max: 40_000 }), fc.integer(), (count, seed) => {
          let state = seed >>> 0;
          const random = (below: number) => {
            state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
            return state % below;
          };
          const plain: SpendEntry[] = [];
          let history = SpendHistory.EMPTY;
          let time = Date.UTC(2025, 0, 1);
          for (let index = 0; index < count; index++) {
            time += random(4 * 60 * 60_000);
            const when = random(50) === 0 ? time - random(400) * 86_400_000 : time;
            const amount = random(10) === 0 ? -random(20_000) : random(5_000);
            const added: SpendEntry = { transactionToken: `txn-${index}`, at: when, amount, version: 0 };
            history = history.withEntry(added);
            plain.push(added);
            if (random(8) === 0) {
              // Replaced where it stands: an old entry (the settled tree), a recent one, or one in the tail.
              const which = random(3) === 0 ? random(plain.length) : Math.max(0, plain.length - 1 - random(1500));
              const replacement = { ...plain[which], amount: random(5_000), version: plain[which].version + 1 };
              history = history.withEntry(replacement);
              plain[which] = replacement;
            }
          }
          expect(history.size).toBe(plain.length);
          expect([...history.entries()]).toEqual(plain);
          for (const probe of [0, 1, 2]) {
            const now = new Date(time + probe * random(3 * 86_400_000) - (probe === 2 ? 200 * 86_400_000 : 0));
            for (const window of windows) expect([window, history.spentIn(window, now)]).toEqual([window, plainSpentIn(plain, window, now)]);
          }
          const sample = random(plain.length);
          expect(history.get(plain[sample].transactionToken)).toEqual(plain[sample]);
        }),
        { numRuns: 12 },
      );
    });
  });

  describe('persistence: a history evolved twice (a fold decided on again, a retry) answers as it did', () => {
    const window: SpendWindow = 'FOREVER';
    const now = at('2026-11-22T10:15:30.000Z');
    const long = (count: number): SpendHistory => {
      let history = SpendHistory.EMPTY;
      for (let index = 0; index < count; index++) history = history.withEntry(entry(`txn-${index}`, 1, '2026-11-01T00:00:00.000Z'));
      return history;
    };

    it.each([10, 5000])('given %i entries, two different children of one parent each see only their own entry', (count) => {
      const parent = long(count);
      const first = parent.withEntry(entry('first', 100, '2026-11-02T00:00:00.000Z'));
      const second = parent.withEntry(entry('second', 1000, '2026-11-02T00:00:00.000Z'));
      expect([parent.has('first'), parent.has('second'), parent.spentIn(window, now)]).toEqual([false, false, BigInt(count)]);
      expect([first.has('first'), first.has('second'), first.spentIn(window, now)]).toEqual([true, false, BigInt(count + 100)]);
      expect([second.has('first'), second.has('second'), second.spentIn(window, now)]).toEqual([false, true, BigInt(count + 1000)]);
      // Each goes on growing on its own.
      const firstThen = first.withEntry(entry('second', 7, '2026-11-03T00:00:00.000Z'));
      const secondThen = second.withEntry(entry('first', 9, '2026-11-03T00:00:00.000Z'));
      expect([...firstThen.entries()].slice(count).map((kept) => [kept.transactionToken, kept.amount])).toEqual([
        ['first', 100],
        ['second', 7],
      ]);
      expect([...secondThen.entries()].slice(count).map((kept) => [kept.transactionToken, kept.amount])).toEqual([
        ['second', 1000],
        ['first', 9],
      ]);
      expect(first.has('second')).toBe(false);
      expect(second.has('first')).toBe(false);
    });

    it('given a parent evolved again and again (branches of branches), every history still finds exactly its own transactions', () => {
      let histories = [long(100)];
      for (let generation = 0; generation < 12; generation++) {
        // Each generation evolves every history twice: once as its tip, once as a branch.
        histories = histories.flatMap((history, index) => [
          history.withEntry(entry(`g${generation}-${index}-a`, 1, '2026-11-02T00:00:00.000Z')),
          history.withEntry(entry(`g${generation}-${index}-b`, 1, '2026-11-02T00:00:00.000Z')),
        ]);
        if (histories.length > 64) histories = histories.filter((_, index) => index % 3 === 0);
      }
      const tokensOf = (history: SpendHistory) => [...history.entries()].map((kept) => kept.transactionToken);
      for (const history of histories) {
        const own = new Set(tokensOf(history));
        expect(own.size).toBe(history.size);
        for (const other of histories) {
          const theirs = tokensOf(other);
          expect(theirs.filter((token) => history.has(token))).toEqual(theirs.filter((token) => own.has(token)));
        }
      }
    });
  });
});
