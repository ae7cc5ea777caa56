import { NO_SPEND_LIMIT, SpendLimitDuration } from './card-values';

/** A span that spend is counted over: a card's limit duration, or a program's trailing week. */
export type SpendWindow = SpendLimitDuration | 'WEEKLY';

const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

/** The same calendar date one month earlier, clamped to the end of a shorter month (31 Mar -> 28/29 Feb). */
export function oneMonthBefore(now: Date): Date {
  const year = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
  const month = (now.getUTCMonth() + 11) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(year, month, Math.min(now.getUTCDate(), lastDay), now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds(), now.getUTCMilliseconds()),
  );
}

/** Start of a window, or null when every entry counts (FOREVER) or none (TRANSACTION). */
export function windowStart(window: SpendWindow, now: Date): Date | null {
  switch (window) {
    case 'DAILY':
      // The trailing 24 hours, not the UTC calendar day: Lithic's limits are rolling ("spent $600
      // in the last 24 hours"), and a calendar day would let a card spend twice its limit across
      // midnight within minutes.
      return new Date(now.getTime() - DAY_MS);
    case 'WEEKLY':
      return new Date(now.getTime() - WEEK_MS);
    case 'MONTHLY':
      return oneMonthBefore(now);
    case 'ANNUALLY':
      return new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
    case 'FOREVER':
    case 'TRANSACTION':
      return null;
  }
}

/**
 * What a window's amounts, in event order, add up to: `net` is their plain sum, `lowest` the lowest
 * the running sum reached, never above 0 (the sum before the first amount). Exact (bigint): a window
 * may hold any number of amounts, each up to 2^53 - 1, so the sum may pass 2^53 where a double
 * would round, and a rounded total followed by a credit could approve a cent too much.
 */
export interface SpendTally {
  readonly net: bigint;
  readonly lowest: bigint;
}

/**
 * The one rule for spend against any limit: a credit (a return) undoes only spend made BEFORE it, in
 * event order. So the total is a running total in event order that is clamped at zero at each
 * credit; a credit larger than what was spent before it frees that spend and nothing more, and never
 * leaves room for spend that comes after it.
 *
 * With running sums S_0 = 0, S_1 ... S_n, the clamped running total after the last amount is
 * S_n - min(S_0 ... S_n): each clamp adds back exactly how far the running sum fell below its lowest
 * so far. That is why the tally (net = S_n, lowest = min) is enough, and why a database can tally a
 * program's transactions with one window function without knowing this rule. Tallies of consecutive
 * runs also join: (n1, l1) then (n2, l2) is (n1 + n2, min(l1, n1 + l2)), which is how a card's
 * history keeps its runs summed ahead of any decision (spend-history.ts).
 */
export function spendAfterCredits({ net, lowest }: SpendTally): bigint {
  return net - lowest;
}

/** Would spending `amount` on top of `spent` pass the limit? Reaching it is allowed; 0 means no limit. */
export function overLimit(limit: number, spent: bigint, amount: number): boolean {
  return limit !== NO_SPEND_LIMIT && spent + BigInt(amount) > BigInt(limit);
}

/** What counts against a limit of a window now, as a card's spend history (spend-history.ts) answers it. */
export interface SpentInWindow {
  spentIn(window: SpendWindow, now: Date): bigint;
}

/** Would this amount exceed a card's limit? TRANSACTION compares the amount alone. */
export function exceedsSpendLimit(limit: number, duration: SpendLimitDuration, history: SpentInWindow, amount: number, now: Date): boolean {
  if (limit === NO_SPEND_LIMIT) return false;
  if (duration === 'TRANSACTION') return amount > limit;
  return overLimit(limit, history.spentIn(duration, now), amount);
}
