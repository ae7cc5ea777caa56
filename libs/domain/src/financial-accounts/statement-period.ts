import { NotFound } from '../core/domain-error';
import { hashedToken } from './financial-account';

/**
 * Statements cover calendar months, UTC: Lithic's statements follow a billing cycle, and with no
 * credit product here the month is the cycle every ledger report uses. A month has a statement once
 * it has ended by the program's clock (a sandbox test clock moves that on); the month the account
 * was created in is its first (INITIAL) statement, however little of it the account lived.
 */
export interface StatementPeriod {
  /** Its first instant, inclusive. */
  readonly start: Date;
  /** The next period's first instant, exclusive. */
  readonly end: Date;
}

export function monthOf(instant: Date): StatementPeriod {
  const start = new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), 1));
  return { start, end: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)) };
}

/** Every month from the account's creation that has ended by `now`, oldest first. */
export function endedStatementPeriods(accountCreated: Date, now: Date): StatementPeriod[] {
  const periods: StatementPeriod[] = [];
  for (let period = monthOf(accountCreated); period.end.getTime() <= now.getTime(); period = monthOf(period.end)) periods.push(period);
  return periods;
}

/** A statement's token: from its account and period alone, so it is the same on every read. */
export function statementToken(financialAccountToken: string, period: StatementPeriod): string {
  return hashedToken(`${financialAccountToken}/statement/${period.start.toISOString()}`);
}

/** YYYY-MM-DD of an instant, UTC. */
export function dayOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** The last day a period covers (its end is the next period's first instant). */
export function lastDayOf(period: StatementPeriod): string {
  return dayOf(new Date(period.end.getTime() - 1));
}

/** No statement under the token for the account: not one of its ended months. */
export class StatementNotFound extends NotFound {
  static override readonly code = 'statement_not_found';
  constructor(readonly statementToken: string) {
    super(`Statement ${statementToken} not found`, 'statement_token');
  }
}
