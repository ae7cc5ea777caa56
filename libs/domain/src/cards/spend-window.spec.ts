import { SpendHistory } from './spend-history';
import { exceedsSpendLimit, oneMonthBefore, windowStart } from './spend-window';

const at = (iso: string) => new Date(iso);
/** A history of these amounts (negative: a return) at these times, in this order. */
const historyOf = (...entries: [amount: number, when: string][]): SpendHistory =>
  SpendHistory.of(entries.map(([amount, when], index) => ({ transactionToken: `txn-${index}`, at: Date.parse(when), amount, version: 0 })));

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

  describe('exceedsSpendLimit', () => {
    const now = at('2026-11-22T10:15:30.000Z');
    const history = historyOf([600, '2026-11-20T00:00:00.000Z']);

    it('treats a limit of 0 as no limit', () => {
      expect(exceedsSpendLimit(0, 'FOREVER', history, 100_000_000, now)).toBe(false);
      expect(exceedsSpendLimit(0, 'TRANSACTION', SpendHistory.EMPTY, 100_000_000, now)).toBe(false);
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
      const entries = historyOf([max, '2026-11-01T00:00:00.000Z'], [2, '2026-11-02T00:00:00.000Z'], [-max, '2026-11-03T00:00:00.000Z']);
      expect(exceedsSpendLimit(3, 'FOREVER', entries, 2, now)).toBe(true);
      expect(exceedsSpendLimit(4, 'FOREVER', entries, 2, now)).toBe(false);
    });

    it('compares an amount and a limit near 2^53 exactly', () => {
      const max = Number.MAX_SAFE_INTEGER;
      expect(exceedsSpendLimit(max, 'FOREVER', historyOf([1, '2026-11-01T00:00:00.000Z']), max - 1, now)).toBe(false);
      expect(exceedsSpendLimit(max, 'FOREVER', historyOf([1, '2026-11-01T00:00:00.000Z']), max, now)).toBe(true);
    });
  });
});
