import type { VelocityLimitPeriod } from './auth-rule-parameters';

/**
 * Where a velocity limit's period begins, for an authorization at `now`. A CUSTOM period trails `now`
 * by its duration; the fixed ones start at 00:00 US Eastern Time (Lithic's rule), on the day the
 * period names: today (DAY), the latest `day_of_week` (WEEK, ISO: 1 is Monday), the latest
 * `day_of_month` (MONTH; a day past the month's end is its last day) or the latest `month` and
 * `day_of_month` (YEAR; 29 February is 28 February in other years). Epoch milliseconds; an
 * authorization counts when it happened at or after the start (a trailing one strictly after).
 */
export function velocityPeriodStart(period: VelocityLimitPeriod, now: Date): { readonly from: number; readonly inclusive: boolean } {
  if (period.type === 'CUSTOM') return { from: now.getTime() - period.duration * 1000, inclusive: false };
  const today = easternDate(now);
  return { from: easternMidnight(startDate(period, today)), inclusive: true };
}

/** A calendar date; month 1-12. */
interface CalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

function startDate(period: Exclude<VelocityLimitPeriod, { type: 'CUSTOM' }>, today: CalendarDate): CalendarDate {
  switch (period.type) {
    case 'DAY':
      return today;
    case 'WEEK': {
      const startDay = period.day_of_week ?? 1;
      const isoWeekday = ((new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() + 6) % 7) + 1;
      return daysBefore(today, (isoWeekday - startDay + 7) % 7);
    }
    case 'MONTH': {
      const day = period.day_of_month ?? 1;
      const thisMonth = clampedDate(today.year, today.month, day);
      if (thisMonth.day <= today.day) return thisMonth;
      return today.month === 1 ? clampedDate(today.year - 1, 12, day) : clampedDate(today.year, today.month - 1, day);
    }
    case 'YEAR': {
      const month = period.month ?? 1;
      const day = period.day_of_month ?? 1;
      const thisYear = clampedDate(today.year, month, day);
      const reached = thisYear.month < today.month || (thisYear.month === today.month && thisYear.day <= today.day);
      return reached ? thisYear : clampedDate(today.year - 1, month, day);
    }
  }
}

function clampedDate(year: number, month: number, day: number): CalendarDate {
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { year, month, day: Math.min(day, lastDay) };
}

function daysBefore(date: CalendarDate, days: number): CalendarDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day - days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

const EASTERN = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', hourCycle: 'h23' });

function easternParts(instant: number): CalendarDate & { readonly hour: number; readonly minute: number; readonly second: number } {
  const parts = Object.fromEntries(EASTERN.formatToParts(new Date(instant)).map((part) => [part.type, part.value]));
  return { year: Number(parts['year']), month: Number(parts['month']), day: Number(parts['day']), hour: Number(parts['hour']), minute: Number(parts['minute']), second: Number(parts['second']) };
}

function easternDate(now: Date): CalendarDate {
  const { year, month, day } = easternParts(now.getTime());
  return { year, month, day };
}

/**
 * The instant 00:00 Eastern on a date. Eastern is UTC-5 or UTC-4, and the clocks change at 02:00, so
 * midnight always exists once and has the offset of 05:00 UTC that day.
 */
function easternMidnight(date: CalendarDate): number {
  const utcMidnight = Date.UTC(date.year, date.month - 1, date.day);
  const probe = utcMidnight + 5 * 3_600_000;
  const wall = easternParts(probe);
  const offset = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second) - probe;
  return utcMidnight - offset;
}
