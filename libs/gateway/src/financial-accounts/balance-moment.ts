import type { BalanceMomentParams } from '@ledger/contracts';
import { RequestInvalid } from '../http/errors';

/** The moment a balance route asks about: `balance_date` or `as_of` (the same when both are given), or now (undefined). */
export function balanceMoment({ balance_date, as_of }: BalanceMomentParams): Date | undefined {
  if (balance_date !== undefined && as_of !== undefined && balance_date.getTime() !== as_of.getTime()) {
    throw new RequestInvalid('balance_date and as_of name the same moment and differ');
  }
  return balance_date ?? as_of;
}
