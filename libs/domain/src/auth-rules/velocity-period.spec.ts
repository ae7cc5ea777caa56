import type { VelocityLimitPeriod } from './auth-rule-parameters';
import { velocityPeriodStart } from './velocity-period';

/** Fixed periods start at 00:00 US Eastern Time (UTC-5 in winter, UTC-4 in summer); CUSTOM trails. */
const startOf = (period: VelocityLimitPeriod, now: string) => new Date(velocityPeriodStart(period, new Date(now)).from).toISOString();

describe('velocity limit periods', () => {
  it('trails a CUSTOM period by its seconds, not counting its first instant', () => {
    expect(velocityPeriodStart({ type: 'CUSTOM', duration: 60 }, new Date('2026-11-22T10:15:30.000Z'))).toEqual({ from: Date.parse('2026-11-22T10:14:30.000Z'), inclusive: false });
  });

  it.each([
    ['a winter morning', '2026-11-22T10:15:30.000Z', '2026-11-22T05:00:00.000Z'],
    ['a winter evening, already the next day in UTC', '2026-11-23T03:00:00.000Z', '2026-11-22T05:00:00.000Z'],
    ['a summer evening', '2026-07-01T03:00:00.000Z', '2026-06-30T04:00:00.000Z'],
    ['the day summer time ends (midnight still UTC-4)', '2026-11-01T12:00:00.000Z', '2026-11-01T04:00:00.000Z'],
    ['the day summer time starts (midnight still UTC-5)', '2026-03-08T12:00:00.000Z', '2026-03-08T05:00:00.000Z'],
  ])('starts a DAY at midnight Eastern, on %s', (_when, now, start) => {
    expect(startOf({ type: 'DAY' }, now)).toBe(start);
  });

  it('starts a WEEK on the latest Monday by default, or the given ISO day', () => {
    // 22 November 2026 is a Sunday.
    expect(startOf({ type: 'WEEK' }, '2026-11-22T10:15:30.000Z')).toBe('2026-11-16T05:00:00.000Z');
    expect(startOf({ type: 'WEEK', day_of_week: 7 }, '2026-11-22T10:15:30.000Z')).toBe('2026-11-22T05:00:00.000Z');
    expect(startOf({ type: 'WEEK', day_of_week: 1 }, '2026-11-23T04:59:59.000Z')).toBe('2026-11-16T05:00:00.000Z');
  });

  it('starts a MONTH on its day, the last day of a shorter month', () => {
    expect(startOf({ type: 'MONTH' }, '2026-11-22T10:15:30.000Z')).toBe('2026-11-01T04:00:00.000Z');
    expect(startOf({ type: 'MONTH', day_of_month: 25 }, '2026-11-22T10:15:30.000Z')).toBe('2026-10-25T04:00:00.000Z');
    expect(startOf({ type: 'MONTH', day_of_month: 31 }, '2027-02-15T12:00:00.000Z')).toBe('2027-01-31T05:00:00.000Z');
    expect(startOf({ type: 'MONTH', day_of_month: 31 }, '2027-03-05T12:00:00.000Z')).toBe('2027-02-28T05:00:00.000Z');
    expect(startOf({ type: 'MONTH', day_of_month: 31 }, '2027-02-28T12:00:00.000Z')).toBe('2027-02-28T05:00:00.000Z');
  });

  it('starts a YEAR on 1 January by default, or its month and day; 29 February is 28 February in other years', () => {
    expect(startOf({ type: 'YEAR' }, '2026-11-22T10:15:30.000Z')).toBe('2026-01-01T05:00:00.000Z');
    expect(startOf({ type: 'YEAR', month: 12, day_of_month: 1 }, '2026-11-22T10:15:30.000Z')).toBe('2025-12-01T05:00:00.000Z');
    expect(startOf({ type: 'YEAR', month: 2, day_of_month: 29 }, '2027-03-01T12:00:00.000Z')).toBe('2027-02-28T05:00:00.000Z');
    expect(startOf({ type: 'YEAR', month: 2, day_of_month: 29 }, '2028-03-01T12:00:00.000Z')).toBe('2028-02-29T05:00:00.000Z');
  });
});
