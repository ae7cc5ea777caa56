import { decideAuthorization, type AuthorizationChecks, type AuthorizeSpend } from '../cards/card-authorization';
import type { Card, IssuedCard } from '../cards/card-state';
import type { AccountLimit, GlobalLimitDecline } from '../programs/program-spend-limits';
import { type ExistingProgram, fundingStateOf, isMerchantBlocked } from '../programs/program';
import type { Merchant } from '../transactions/transaction-values';
import type { ExistingAuthRule } from '../auth-rules/auth-rule';
import { rulesToRun } from '../auth-rules/auth-rule-evaluation';
import { type CardActivity, NO_CARD_ACTIVITY } from '../cards/card-activity';
import type { VelocityUsage } from '../auth-rules/velocity-limit';

/**
 * What the presented card details are checked against, made at the edge where the card's secrets can
 * be read: the card's CVV (derived from its PAN, never stored) and the presented PIN's keyed hash.
 * The comparisons themselves are the domain's.
 */
export interface PresentedDetails {
  /** The CVV presented, and the card's own; both null when the request carried none. */
  readonly cvv: { readonly presented: string; readonly cards: string } | null;
  readonly expMonth?: string;
  readonly expYear?: string;
  /** Keyed hash of the presented PIN, comparable with the card's; null when none was presented. */
  readonly pinHash: string | null;
}

/** What only the outside can answer: the program's totals across cards (read models). */
export interface OutsideAnswers {
  readonly globalLimitExceeded: GlobalLimitDecline | null;
  /** Which of Lithic's account limits that is, when it is one (daily, lifetime). */
  readonly accountLimit?: AccountLimit;
}

/**
 * The checks an authorization is decided on, from the program, the card and what was presented:
 * the program's state, merchant blocks and velocity rule, the card's funding source (one the program
 * no longer has counts as DELETED), whether the CVV, expiry and PIN presented match the card's, and the
 * program's Auth Rules that run on the card, with the program's creation as the account's (ACCOUNT_AGE).
 */
export function authorizationChecks(
  program: ExistingProgram,
  card: IssuedCard,
  merchant: Merchant,
  presented: PresentedDetails,
  outside: OutsideAnswers,
  authRules: readonly ExistingAuthRule[] = [],
  /** The card's activity (cardActivityFolder): read only when the program has rules. */
  activity: CardActivity = NO_CARD_ACTIVITY,
  /** What the ACCOUNT-scoped velocity limits that run have counted (account-velocity-usage.ts): read only when there are some. */
  accountUsage: ReadonlyMap<string, VelocityUsage> = new Map(),
): AuthorizationChecks {
  const expiryGiven = presented.expMonth !== undefined || presented.expYear !== undefined;
  return {
    programState: program.state,
    merchantBlocked: isMerchantBlocked(program, merchant),
    velocity: program.velocityRule,
    globalLimitExceeded: outside.globalLimitExceeded,
    ...(outside.accountLimit ? { accountLimitExceeded: outside.accountLimit } : {}),
    fundingState: fundingStateOf(program, card.fundingToken),
    cvvMatches: presented.cvv === null ? null : presented.cvv.presented === presented.cvv.cards,
    expiryMatches: expiryGiven ? presented.expMonth === card.expMonth && presented.expYear === card.expYear : null,
    presentedPinHash: presented.pinHash,
    streamDecline: null,
    authRules: { rules: rulesToRun(authRules, { cardToken: card.cardToken, accountToken: card.programToken }), accountCreated: program.created, activity, accountUsage },
  };
}

/**
 * A partial approval by the program's authorization endpoint: the approved amount, and the local
 * amount at the authorization's own rate (rounded half up; a zero amount has no rate and keeps the
 * approved amount).
 */
export function partiallyApproved(requested: { readonly amount: number; readonly merchantAmount: number }, approvedAmount: number): { amount: number; merchantAmount: number } {
  const merchantAmount = requested.amount === 0 ? approvedAmount : Math.round((approvedAmount * requested.merchantAmount) / requested.amount);
  return { amount: approvedAmount, merchantAmount };
}

/**
 * Whether the card would approve on its own checks: the program's authorization endpoint is asked
 * only then, and its answer joins the checks, so the decision stays one pure step.
 */
export function cardWouldApprove(command: AuthorizeSpend, card: Card, now: Date): boolean {
  return decideAuthorization(command, card, now).some((event) => event.type === 'CardAuthorizationApproved');
}
