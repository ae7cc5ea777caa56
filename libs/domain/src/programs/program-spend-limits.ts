import { overLimit, SpendWindow } from '../cards/spend-window';
import { NO_SPEND_LIMIT } from '../cards/card-values';
import type { ProgramSpendLimits } from './program';

export type GlobalLimitDecline = 'GLOBAL_TRANSACTION_LIMIT' | 'GLOBAL_WEEKLY_LIMIT' | 'GLOBAL_MONTHLY_LIMIT';

/** The windows of a program's limits: a trailing week and a trailing month (the card's MONTHLY window). */
export const PROGRAM_SPEND_WINDOWS = { weekly: 'WEEKLY', monthly: 'MONTHLY' } as const satisfies Record<string, SpendWindow>;
export type ProgramSpendWindow = (typeof PROGRAM_SPEND_WINDOWS)[keyof typeof PROGRAM_SPEND_WINDOWS];

/** What the program's cards spent in each window, by the rule of `spendAfterCredits`. */
export interface ProgramWindowSpend {
  readonly weekly: bigint;
  readonly monthly: bigint;
}

/**
 * The platform limits over all of a program's cards, checked in this order. A window's spend counts
 * returns the way a card's does: a return undoes only spend made before it (spend-window.ts).
 */
export function programLimitExceeded(limits: ProgramSpendLimits, amount: number, spent: ProgramWindowSpend): GlobalLimitDecline | null {
  if (limits.transaction > 0 && amount > limits.transaction) return 'GLOBAL_TRANSACTION_LIMIT';
  if (overLimit(limits.weekly, spent.weekly, amount)) return 'GLOBAL_WEEKLY_LIMIT';
  if (overLimit(limits.monthly, spent.monthly, amount)) return 'GLOBAL_MONTHLY_LIMIT';
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
export function programSpendStanding(limits: ProgramSpendLimits, spent: Partial<ProgramWindowSpend>): Partial<Record<keyof ProgramWindowSpend, ProgramWindowStanding>> {
  const standing: Partial<Record<keyof ProgramWindowSpend, ProgramWindowStanding>> = {};
  for (const window of ['weekly', 'monthly'] as const) {
    const limit = limits[window];
    if (limit === NO_SPEND_LIMIT) continue;
    const windowSpent = spent[window] ?? 0n;
    const left = BigInt(limit) - windowSpent;
    standing[window] = { limit, spent: windowSpent, available: left > 0n ? left : 0n };
  }
  return standing;
}
