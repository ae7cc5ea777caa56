import { Facts } from './facts';
import { money } from './money';

/** A balance as `/balances` answers it (Lithic's Balance): cents, from the financial account's side. */
export interface AccountBalance {
  readonly available_amount: number;
  readonly pending_amount: number;
  readonly total_amount: number;
  readonly currency?: string;
  readonly updated?: string;
}

/**
 * Available, pending and settled money of a financial account or of one card's part of it. The
 * account's side: what went out is negative, what is held is pending, available is the settled
 * total less what is held.
 */
export function AccountBalanceFacts({ balance }: { balance: AccountBalance }) {
  const currency = balance.currency ?? 'USD';
  return (
    <Facts
      facts={[
        ['Available', money(balance.available_amount, currency)],
        ['Pending', money(balance.pending_amount, currency)],
        ['Settled', money(balance.total_amount, currency)],
      ]}
    />
  );
}
