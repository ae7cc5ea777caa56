import type { SpendLimitDuration } from './card-values';

/** Amounts that count against a card's spend limit, each at the moment it happened. */
export interface SpendEntry {
  /** UTC ISO time of the authorization (or of the return, for a credit). */
  readonly at: string;
  /** Cents currently counted: the held or cleared amount; negative for a return. */
  readonly amount: number;
  /** Version of the transaction-stream event the amount reflects (0: the authorization or return). */
  readonly version: number;
}

/** The same calendar date one month earlier, clamped to the end of a shorter month (31 Mar -> 28/29 Feb). */
export function oneMonthBefore(now: Date): Date {
  const year = now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : now.getUTCFullYear();
  const month = (now.getUTCMonth() + 11) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(year, month, Math.min(now.getUTCDate(), lastDay), now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds(), now.getUTCMilliseconds()),
  );
}

/** Start of the window a duration counts over, or null when every entry counts (FOREVER) or none (TRANSACTION). */
export function windowStart(duration: SpendLimitDuration, now: Date): Date | null {
  switch (duration) {
    case 'MONTHLY':
      return oneMonthBefore(now);
    case 'ANNUALLY':
      return new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
    case 'FOREVER':
    case 'TRANSACTION':
      return null;
  }
}

/** Cents spent in the window of the duration; returns in the window reduce it, never below zero. */
export function spentInWindow(entries: Iterable<SpendEntry>, duration: SpendLimitDuration, now: Date): number {
  if (duration === 'TRANSACTION') return 0;
  const start = windowStart(duration, now)?.getTime() ?? Number.NEGATIVE_INFINITY;
  let total = 0;
  for (const entry of entries) if (Date.parse(entry.at) >= start) total += entry.amount;
  return Math.max(0, total);
}

/** Would this amount exceed the limit? A limit of 0 means no limit. */
export function exceedsSpendLimit(limit: number, duration: SpendLimitDuration, entries: Iterable<SpendEntry>, amount: number, now: Date): boolean {
  if (limit === 0) return false;
  if (duration === 'TRANSACTION') return amount > limit;
  return spentInWindow(entries, duration, now) + amount > limit;
}
