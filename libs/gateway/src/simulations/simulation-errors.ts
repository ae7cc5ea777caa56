import { declineMessage } from '@ledger/contracts';
import { EdgeError, FINAL, type RetryHeaders, UNAVAILABLE_RETRY_AFTER } from '../http/errors';

/** A simulated authorization that was declined: 422 with the token of the transaction it recorded. */
export class AuthorizationDeclined extends EdgeError {
  readonly status = 422;

  constructor(
    readonly reason: string,
    readonly transactionToken: string,
  ) {
    super(declineMessage(reason));
  }
}

/**
 * A simulation (an authorization, a void, a clearing, ...) that failed and was then withdrawn: its
 * token is taken, so nothing can be recorded under it any more. Nothing stands, and sending the same
 * request again is safe.
 */
export class SimulationNotRecorded extends EdgeError {
  readonly status = 503;
  // Withdrawn: a retry cannot be recorded twice.
  override readonly retry: RetryHeaders = { 'x-should-retry': 'true', ...UNAVAILABLE_RETRY_AFTER };

  constructor(simulation: string, cause: string) {
    super(`The ${simulation} was not recorded (${cause}); nothing stands under it, so it is safe to send it again`);
  }
}

/**
 * A simulation that failed while the event store could not be reached long enough to find out
 * whether it stands: the one 5xx that promises nothing. The token names where to look.
 */
export class SimulationOutcomeUnknown extends EdgeError {
  readonly status = 503;
  // Not settled: a retry might be recorded twice.
  override readonly retry: RetryHeaders = { ...FINAL, ...UNAVAILABLE_RETRY_AFTER };

  constructor(
    simulation: string,
    readonly transactionToken: string,
  ) {
    super(`Whether the ${simulation} was recorded is not known (the ledger's database could not be reached); look at transaction ${transactionToken} before sending it again`);
  }
}
