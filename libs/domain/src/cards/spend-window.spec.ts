import fc from 'fast-check';
import { exceedsSpendLimit, oneMonthBefore, SpendEntry, spendAfterCredits, tallySpend, windowSpend, windowStart } from './spend-window';

const at = (iso: string) => new Date(iso);
const spent = (amount: number, when: string): SpendEntry => ({ at: when, amount, version: 0 });
const returned = (amount: number, when: string): SpendEntry => ({ at: when, amount: -amount, version: 0 });

describe('spend window', () => {
  describe('oneMonthBefore: the same calendar date one month earlier', () => {
    it.each([
      ['keeps the day and the time of day', '2026-11-22T10:15:30.123Z', '2026-10-22T10:15:30.123Z'],
      ['goes from January back to December of the previous year', '2026-01-15T08:00:00.000Z', '2025-12-15T08:00:00.000Z'],
      ['goes from 1 January back to 1 December of the previous year', '2026-01-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z'],
      ['clamps 31 March to 28 February in a common year', '2026-03-31T10:15:30.000Z', '2026-02-28T10:15:30.000Z'],
      ['clamps 31 March to 29 February in a leap year', '2028-03-31T10:15:30.000Z', '2028-02-29T10:15:30.000Z'],
      ['clamps 29 March to 28 February in a common year', '2026-03-29T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
      ['maps 29 March to 29 February in a leap year', '2028-03-29T00:00:00.000Z', '2028-02-29T00:00:00.000Z'],
      ['maps 29 February (leap year) to 29 January', '2028-02-29T12:00:00.000Z', '2028-01-29T12:00:00.000Z'],
      ['clamps 31 May to 30 April', '2026-05-31T23:59:59.999Z', '2026-04-30T23:59:59.999Z'],
      ['maps 31 December to 30 November', '2026-12-31T00:00:00.000Z', '2026-11-30T00:00:00.000Z'],
      ['maps 31 August to 31 July (both long months)', '2026-08-31T06:00:00.000Z', '2026-07-31T06:00:00.000Z'],
    ])('%s', (_rule, now, expected) => {
      expect(oneMonthBefore(at(now)).toISOString()).toBe(expected);
    });
  });

  describe('windowStart', () => {
    const now = at('2026-11-22T10:15:30.000Z');

    it('starts a MONTHLY window one calendar month back', () => {
      expect(windowStart('MONTHLY', now)?.toISOString()).toBe('2026-10-22T10:15:30.000Z');
    });

    it('starts a DAILY window 24 hours back, to the millisecond, whatever the calendar day', () => {
      expect(windowStart('DAILY', now)?.toISOString()).toBe('2026-11-21T10:15:30.000Z');
      expect(windowStart('DAILY', at('2026-01-01T00:00:00.000Z'))?.toISOString()).toBe('2025-12-31T00:00:00.000Z');
    });

    it('starts an ANNUALLY window at midnight UTC on 1 January of the current year', () => {
      expect(windowStart('ANNUALLY', now)?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    });

    it('starts a program WEEKLY window seven days back, to the millisecond', () => {
      expect(windowStart('WEEKLY', now)?.toISOString()).toBe('2026-11-15T10:15:30.000Z');
    });

    it('has no start for FOREVER (everything counts) nor TRANSACTION (nothing counts)', () => {
      expect(windowStart('FOREVER', now)).toBeNull();
      expect(windowStart('TRANSACTION', now)).toBeNull();
    });
  });

  describe('tallySpend and spendAfterCredits: a credit undoes only spend made before it', () => {
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
      expect(spendAfterCredits(tallySpend(amounts))).toBe(expected);
      expect(clampedRunningTotal(amounts)).toBe(expected);
    });

    it('tallies the net sum and the lowest running sum, never above zero', () => {
      expect(tallySpend([300, -500, 100])).toEqual({ net: -100n, lowest: -200n });
      expect(tallySpend([300, 100])).toEqual({ net: 400n, lowest: 0n });
    });

    it('equals the clamped running total for any sequence of spends and credits (the formula a database can compute)', () => {
      const amount = fc.oneof(fc.integer({ min: -5000, max: 5000 }), fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }));
      fc.assert(
        fc.property(fc.array(amount, { maxLength: 60 }), (amounts) => {
          expect(spendAfterCredits(tallySpend(amounts))).toBe(clampedRunningTotal(amounts));
        }),
      );
    });

    it('is exact past 2^53, where doubles round (2^53 - 1 + 2 - (2^53 - 1) is 2, not 1)', () => {
      const max = Number.MAX_SAFE_INTEGER;
      expect(spendAfterCredits(tallySpend([max, 2, -max]))).toBe(2n);
      expect(max + 2 - max).toBe(1); // what a double total would have said
      expect(spendAfterCredits(tallySpend([max, max, max]))).toBe(27021597764222973n);
    });
  });

  describe('windowSpend', () => {
    const now = at('2026-11-22T10:15:30.000Z');

    it.each([
      { title: 'counts nothing for TRANSACTION: every authorization stands alone', duration: 'TRANSACTION', entries: [spent(900, '2026-11-22T10:00:00.000Z')], total: 0n },
      {
        title: 'counts MONTHLY entries from the start of the window on, the boundary included',
        duration: 'MONTHLY',
        entries: [spent(100, '2026-10-22T10:15:30.000Z'), spent(200, '2026-10-22T10:15:29.999Z'), spent(400, '2026-11-22T10:15:30.000Z')],
        total: 500n,
      },
      { title: 'counts WEEKLY entries of the last seven days, the boundary included', duration: 'WEEKLY', entries: [spent(100, '2026-11-15T10:15:30.000Z'), spent(200, '2026-11-15T10:15:29.999Z')], total: 100n },
      { title: 'counts ANNUALLY entries of the current calendar year only', duration: 'ANNUALLY', entries: [spent(100, '2025-12-31T23:59:59.999Z'), spent(200, '2026-01-01T00:00:00.000Z')], total: 200n },
      { title: 'counts FOREVER entries of any age', duration: 'FOREVER', entries: [spent(100, '2001-01-01T00:00:00.000Z'), spent(200, '2026-11-22T00:00:00.000Z')], total: 300n },
      { title: 'lets a return in the window reduce what was spent before it', duration: 'MONTHLY', entries: [spent(700, '2026-11-01T00:00:00.000Z'), returned(300, '2026-11-02T00:00:00.000Z')], total: 400n },
      { title: 'ignores a return made before the window', duration: 'MONTHLY', entries: [spent(700, '2026-11-01T00:00:00.000Z'), returned(300, '2026-10-01T00:00:00.000Z')], total: 700n },
      {
        title: 'lets a return in the window undo nothing of spend from before the window, and nothing that follows it',
        duration: 'MONTHLY',
        entries: [spent(900, '2026-10-01T00:00:00.000Z'), returned(900, '2026-11-01T00:00:00.000Z'), spent(400, '2026-11-02T00:00:00.000Z')],
        total: 400n,
      },
    ] as const)('$title', ({ duration, entries, total }) => {
      expect(windowSpend(entries, duration, now)).toBe(total);
    });

    it('follows event order, not the entries\' times', () => {
      const spendThenReturn = [spent(600, '2026-11-20T00:00:00.000Z'), returned(600, '2026-11-19T00:00:00.000Z')];
      expect(windowSpend(spendThenReturn, 'FOREVER', now)).toBe(0n);
      expect(windowSpend([...spendThenReturn].reverse(), 'FOREVER', now)).toBe(600n);
    });

    it.each(['WEEKLY', 'MONTHLY', 'ANNUALLY', 'FOREVER'] as const)('is never negative, and a return frees no room for later spend (%s)', (window) => {
      expect(windowSpend([spent(100, '2026-11-20T00:00:00.000Z'), returned(500, '2026-11-21T00:00:00.000Z')], window, now)).toBe(0n);
      expect(windowSpend([returned(500, '2026-11-20T00:00:00.000Z'), spent(100, '2026-11-21T00:00:00.000Z')], window, now)).toBe(100n);
    });

    it('is zero without entries', () => {
      expect(windowSpend([], 'FOREVER', now)).toBe(0n);
    });
  });

  describe('exceedsSpendLimit', () => {
    const now = at('2026-11-22T10:15:30.000Z');
    const history = [spent(600, '2026-11-20T00:00:00.000Z')];

    it('treats a limit of 0 as no limit', () => {
      expect(exceedsSpendLimit(0, 'FOREVER', history, 100_000_000, now)).toBe(false);
      expect(exceedsSpendLimit(0, 'TRANSACTION', [], 100_000_000, now)).toBe(false);
    });

    it('compares a TRANSACTION limit with the amount alone: equal is allowed, one cent more is not', () => {
      expect(exceedsSpendLimit(1000, 'TRANSACTION', history, 1000, now)).toBe(false);
      expect(exceedsSpendLimit(1000, 'TRANSACTION', history, 1001, now)).toBe(true);
    });

    it('adds the amount to what the window already spent: reaching the limit is allowed, passing it is not', () => {
      expect(exceedsSpendLimit(1000, 'MONTHLY', history, 400, now)).toBe(false);
      expect(exceedsSpendLimit(1000, 'MONTHLY', history, 401, now)).toBe(true);
    });

    it('decides on the exact total when the window passed 2^53 (a double total would approve here)', () => {
      const max = Number.MAX_SAFE_INTEGER;
      const entries = [spent(max, '2026-11-01T00:00:00.000Z'), spent(2, '2026-11-02T00:00:00.000Z'), returned(max, '2026-11-03T00:00:00.000Z')];
      expect(exceedsSpendLimit(3, 'FOREVER', entries, 2, now)).toBe(true);
      expect(exceedsSpendLimit(4, 'FOREVER', entries, 2, now)).toBe(false);
    });

    it('compares an amount and a limit near 2^53 exactly', () => {
      const max = Number.MAX_SAFE_INTEGER;
      expect(exceedsSpendLimit(max, 'FOREVER', [spent(1, '2026-11-01T00:00:00.000Z')], max - 1, now)).toBe(false);
      expect(exceedsSpendLimit(max, 'FOREVER', [spent(1, '2026-11-01T00:00:00.000Z')], max, now)).toBe(true);
    });
  });
});
