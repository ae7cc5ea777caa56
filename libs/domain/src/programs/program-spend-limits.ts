import { overLimit, SpendWindow, windowStart } from '../cards/spend-window';
import { NO_SPEND_LIMIT } from '../cards/card-values';
import type { AccountSpendLimits, ProgramSpendLimits } from './program';

export type GlobalLimitDecline = 'GLOBAL_TRANSACTION_LIMIT' | 'GLOBAL_WEEKLY_LIMIT' | 'GLOBAL_MONTHLY_LIMIT';

/**
 * The windows of a program's limits: a trailing day, week and month (the card's windows of those
 * names) and the program's whole life. Daily and lifetime are Lithic's account limits.
 */
export const PROGRAM_SPEND_WINDOWS = { daily: 'DAILY', weekly: 'WEEKLY', monthly: 'MONTHLY', lifetime: 'FOREVER' } as const satisfies Record<string, SpendWindow>;
export type ProgramSpendWindow = (typeof PROGRAM_SPEND_WINDOWS)[keyof typeof PROGRAM_SPEND_WINDOWS];
export type ProgramWindowName = keyof typeof PROGRAM_SPEND_WINDOWS;

/** The first instant a program window counts: its lifetime counts every transaction it ever had. */
export function programWindowStart(window: ProgramSpendWindow, now: Date): Date {
  return windowStart(window, now) ?? new Date(0);
}

/** What the program's cards spent in each window, by the rule of `spendAfterCredits`. */
export type ProgramWindowSpend = Readonly<Record<ProgramWindowName, bigint>>;

/**
 * The spec has platform results for its own three limits only, and its result list is closed, so
 * each of Lithic's account limits declines with the spec's result of the window nearest to its own
 * (docs/decisions.md): the trailing day with the week's, the program's life with the month's.
 * Checked shortest window first, so the results keep the spec's order.
 */
export const ACCOUNT_LIMIT_DECLINES = { daily: 'GLOBAL_WEEKLY_LIMIT', lifetime: 'GLOBAL_MONTHLY_LIMIT' } as const satisfies Record<keyof AccountSpendLimits, GlobalLimitDecline>;

/**
 * Which of Lithic's account limits declined, beside the spec's result it shares: recorded on the
 * decline so the transaction can show Lithic's own detailed result for it.
 */
export type AccountLimit = 'DAILY' | 'LIFETIME';

/** Lithic's detailed results of its account limits, which the spec's results cannot tell apart. */
export const ACCOUNT_LIMIT_DETAILED_RESULTS = { DAILY: 'ACCOUNT_DAILY_SPEND_LIMIT_EXCEEDED', LIFETIME: 'ACCOUNT_LIFETIME_SPEND_LIMIT_EXCEEDED' } as const satisfies Record<AccountLimit, string>;
export type AccountLimitDetailedResult = (typeof ACCOUNT_LIMIT_DETAILED_RESULTS)[AccountLimit];

/** A platform limit that declines: the spec's result, and which of Lithic's account limits it was, if one. */
export interface ProgramLimitBreach {
  readonly result: GlobalLimitDecline;
  readonly accountLimit?: AccountLimit;
}

/** Each window's limit, from both sets. */
function windowLimits(limits: ProgramSpendLimits, account: AccountSpendLimits): Record<ProgramWindowName, number> {
  return { daily: account.daily, weekly: limits.weekly, monthly: limits.monthly, lifetime: account.lifetime };
}

/** The windows that have a limit, shortest first: only their spend needs tallying. */
export function windowsToTally(limits: ProgramSpendLimits, account: AccountSpendLimits): ProgramWindowName[] {
  const all = windowLimits(limits, account);
  return (Object.keys(all) as ProgramWindowName[]).filter((window) => all[window] !== NO_SPEND_LIMIT);
}

/**
 * The platform limits over all of a program's cards, checked in this order: per transaction, then
 * the windows from the shortest (Lithic's daily) to the longest (Lithic's lifetime). A window's
 * spend counts returns the way a card's does: a return undoes only spend made before it
 * (spend-window.ts).
 */
export function programLimitExceeded(limits: ProgramSpendLimits, account: AccountSpendLimits, amount: number, spent: ProgramWindowSpend): GlobalLimitDecline | null {
  return programLimitBreach(limits, account, amount, spent)?.result ?? null;
}

/** {@link programLimitExceeded}, naming Lithic's account limit when one of them declines. */
export function programLimitBreach(limits: ProgramSpendLimits, account: AccountSpendLimits, amount: number, spent: ProgramWindowSpend): ProgramLimitBreach | null {
  if (limits.transaction > 0 && amount > limits.transaction) return { result: 'GLOBAL_TRANSACTION_LIMIT' };
  if (overLimit(account.daily, spent.daily, amount)) return { result: ACCOUNT_LIMIT_DECLINES.daily, accountLimit: 'DAILY' };
  if (overLimit(limits.weekly, spent.weekly, amount)) return { result: 'GLOBAL_WEEKLY_LIMIT' };
  if (overLimit(limits.monthly, spent.monthly, amount)) return { result: 'GLOBAL_MONTHLY_LIMIT' };
  if (overLimit(account.lifetime, spent.lifetime, amount)) return { result: ACCOUNT_LIMIT_DECLINES.lifetime, accountLimit: 'LIFETIME' };
  return null;
}

/** One platform window as Lithic's account spend limits show it: the limit, what counts against it, and what is left. */
export interface ProgramWindowStanding {
  readonly limit: number;
  readonly spent: bigint;
  readonly available: bigint;
}

/**
 * Where each of the program's windowed limits stands, by the rule the authorization applies
 * (`programLimitExceeded`): a window whose limit is 0 (none) is absent. `available` never goes
 * below 0: concurrent authorizations may overshoot a platform limit (docs/declines.md).
 */
export function programSpendStanding(limits: ProgramSpendLimits, account: AccountSpendLimits, spent: Partial<ProgramWindowSpend>): Partial<Record<ProgramWindowName, ProgramWindowStanding>> {
  const all = windowLimits(limits, account);
  const standing: Partial<Record<ProgramWindowName, ProgramWindowStanding>> = {};
  for (const window of windowsToTally(limits, account)) {
    const limit = all[window];
    const windowSpent = spent[window] ?? 0n;
    const left = BigInt(limit) - windowSpent;
    standing[window] = { limit, spent: windowSpent, available: left > 0n ? left : 0n };
  }
  return standing;
}
