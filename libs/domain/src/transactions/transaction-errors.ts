import { Conflict, InvalidInput, NotFound } from '../core/domain-error';
import type { TransactionStatus } from './transaction-values';

export class TransactionNotFound extends NotFound {
  static override readonly code = 'transaction_not_found';
  constructor(readonly transactionToken: string) {
    super(`Transaction ${transactionToken} not found`, 'token');
  }
}

/** A move the status machine does not allow, such as voiding a cleared transaction. */
export class TransactionStateConflict extends Conflict {
  static override readonly code = 'transaction_state_conflict';
  constructor(transactionToken: string, status: TransactionStatus, action: string, allowedFrom: string) {
    super(`Transaction ${transactionToken} is ${status}; ${action} needs ${allowedFrom}`, 'token');
  }
}

export class AmountAboveAvailable extends InvalidInput {
  static override readonly code = 'amount_above_available';
  constructor(action: string, amount: number, available: number) {
    super(`amount ${amount} is more than the ${available} cents ${action}`, 'amount');
  }
}

/**
 * An authorization expires whole (Lithic: "an authorization expiry will always apply to the full
 * pending amount"): an amount sent with it must be exactly what is pending.
 */
export class ExpiryAmountNotPending extends InvalidInput {
  static override readonly code = 'expiry_amount_not_pending';
  constructor(amount: number, pending: number) {
    super(`amount ${amount} is not the ${pending} cents pending; an authorization expires whole`, 'amount');
  }
}

/** The amount is allowed, but at the authorization's exchange rate it comes to more than any amount can be. */
export class LocalAmountOutOfRange extends InvalidInput {
  static override readonly code = 'local_amount_out_of_range';
  constructor(amount: number, local: bigint) {
    super(`amount ${amount} comes to ${local} in the merchant currency at the authorization's rate, more than ${Number.MAX_SAFE_INTEGER}`, 'amount');
  }
}

/**
 * The event token of a void, clearing, advice or return reversal that its caller was told was not
 * recorded (EventTokenWithdrawn): the event, arriving late, must not stand after all.
 */
export class TransactionEventTokenWithdrawn extends Conflict {
  static override readonly code = 'transaction_event_token_withdrawn';
  constructor(transactionToken: string, eventToken: string) {
    super(`Event ${eventToken} of transaction ${transactionToken} was withdrawn after its caller was told it was not recorded`, 'token');
  }
}
