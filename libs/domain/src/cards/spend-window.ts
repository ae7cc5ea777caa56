import { NO_SPEND_LIMIT, SpendLimitDuration } from './card-values';

/** A span that spend is counted over: a card's limit duration, or a program's trailing week. */
export type SpendWindow = SpendLimitDuration | 'WEEKLY';

/** An amount that counts against a spend limit, at the moment it happened. */
export interface SpendEntry {
  /** UTC ISO time of the authorization (or of the return, for a credit). */
  readonly at: string;
  /** Cents currently counted: the held or cleared amount; negative for a credit (a return). */
  readonly amount: number;
  /** Version of the transaction-stream event the amount reflects (0: the authorization or return). */
  readonly version: number;
}

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

export function tallySpend(amountsInEventOrder: readonly number[]): SpendTally {
  // Doubles add safe integers exactly while every running sum stays a safe integer, and a sum past
  // 2^53 - 1 rounds to at least 2^53, so it cannot slip by unnoticed: then the tally starts over in
  // bigint. Most cards never get there, and bigint arithmetic costs a hundred times more.
  let net = 0;
  let lowest = 0;
  for (const amount of amountsInEventOrder) {
    net += amount;
    if (!Number.isSafeInteger(net)) return exactTally(amountsInEventOrder);
    if (net < lowest) lowest = net;
  }
  return { net: BigInt(net), lowest: BigInt(lowest) };
}

function exactTally(amountsInEventOrder: readonly number[]): SpendTally {
  let net = 0n;
  let lowest = 0n;
  for (const amount of amountsInEventOrder) {
    net += BigInt(amount);
    if (net < lowest) lowest = net;
  }
  return { net, lowest };
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
 * program's transactions with one window function without knowing this rule.
 */
export function spendAfterCredits({ net, lowest }: SpendTally): bigint {
  return net - lowest;
}

/**
 * What counts against a limit of this window now: the entries of the window only (those at or
 * after its start), in event order, credits undoing only earlier spend of the same window. A credit
 * in the window therefore cannot undo spend from before the window: that spend no longer counts.
 */
export function windowSpend(entriesInEventOrder: Iterable<SpendEntry>, window: SpendWindow, now: Date): bigint {
  if (window === 'TRANSACTION') return 0n;
  const start = windowStart(window, now)?.getTime();
  const amounts: number[] = [];
  for (const entry of entriesInEventOrder) if (start === undefined || Date.parse(entry.at) >= start) amounts.push(entry.amount);
  return spendAfterCredits(tallySpend(amounts));
}

/** Would spending `amount` on top of `spent` pass the limit? Reaching it is allowed; 0 means no limit. */
export function overLimit(limit: number, spent: bigint, amount: number): boolean {
  return limit !== NO_SPEND_LIMIT && spent + BigInt(amount) > BigInt(limit);
}

/** Would this amount exceed a card's limit? TRANSACTION compares the amount alone. */
export function exceedsSpendLimit(limit: number, duration: SpendLimitDuration, entriesInEventOrder: Iterable<SpendEntry>, amount: number, now: Date): boolean {
  if (limit === NO_SPEND_LIMIT) return false;
  if (duration === 'TRANSACTION') return amount > limit;
  return overLimit(limit, windowSpend(entriesInEventOrder, duration, now), amount);
}
