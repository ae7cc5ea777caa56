import type { DeclineReason } from '../transactions/transaction-values';
import type { FundingSourceState } from '../programs/program';
import type { AccountLimit, GlobalLimitDecline } from '../programs/program-spend-limits';
import type { AuthorizationFacts, Card, CardEvent, IssuedCard, SpendAdjustmentCause } from './card-state';
import { CardNotFound } from './card-errors';
import { cardUse, isExpiredAt, isPendingState } from './card-values';
import { merchantKey } from './merchant-lock';
import { exceedsSpendLimit } from './spend-window';
import { authRuleDecline } from '../auth-rules/auth-rule-evaluation';
import { authRuleResultsFor, type AuthRulesCheck } from './card-auth-rules';

// ---------------------------------------------------------------- commands on spend

/** Facts about the program and the presented card details that the handler gathered for this decision. */
export interface AuthorizationChecks {
  readonly programState: 'ACTIVE' | 'PAUSED' | 'CLOSED';
  readonly merchantBlocked: boolean;
  readonly velocity: { readonly maxAuthorizations: number; readonly windowSeconds: number } | null;
  readonly globalLimitExceeded: GlobalLimitDecline | null;
  /** Which of Lithic's account limits `globalLimitExceeded` is, when it is one. */
  readonly accountLimitExceeded?: AccountLimit;
  readonly fundingState: FundingSourceState;
  /** null when the request carried no CVV. */
  readonly cvvMatches: boolean | null;
  /** Through a wallet token: its decline when it may not spend (token-spend.ts); absent otherwise. */
  readonly tokenDecline?: DeclineReason | null;
  /** null when the request carried no expiry. */
  readonly expiryMatches: boolean | null;
  /** Keyed hash of the presented PIN; null when none was presented. */
  readonly presentedPinHash: string | null;
  /** The program's own authorization endpoint, when it answered with a decline. */
  readonly streamDecline: DeclineReason | null;
  /** The program's Auth Rules that run on this card; absent or empty when there are none. */
  readonly authRules?: AuthRulesCheck;
}

export interface AuthorizeSpend {
  readonly type: 'AuthorizeSpend';
  readonly facts: Omit<AuthorizationFacts, 'at' | 'fundingToken'>;
  readonly checks: AuthorizationChecks;
}

export interface AdjustSpend {
  readonly type: 'AdjustSpend';
  readonly cardToken: string;
  readonly transactionToken: string;
  readonly transactionVersion: number;
  readonly cause: SpendAdjustmentCause;
  readonly amount: number;
}

export interface CreditReturn {
  readonly type: 'CreditReturn';
  readonly cardToken: string;
  readonly transactionToken: string;
  readonly eventToken: string;
  readonly amount: number;
  readonly at: string;
}

// ---------------------------------------------------------------- decide

/**
 * Whether a card may spend. The checks run in a fixed order and the first that fails names the
 * decline; docs/declines.md lists the order. A decline is a fact like an approval: both are recorded
 * on the card, so the velocity rule counts every attempt and the transaction can always be rebuilt.
 */
export function decideAuthorization(command: AuthorizeSpend, card: Card, now: Date): CardEvent[] {
  const { facts } = command;
  if (card.status !== 'issued' || card.programToken !== facts.programToken) throw new CardNotFound(facts.cardToken);
  const ruleResults = authRuleResultsFor(command, card, now);
  const recorded = { ...facts, fundingToken: card.fundingToken, at: now.toISOString(), ...(ruleResults.length > 0 ? { ruleResults } : {}) };
  const reason = declineReason(command, card, now, authRuleDecline(ruleResults)?.result ?? null);
  if (reason !== null) return [{ type: 'CardAuthorizationDeclined', data: { ...recorded, ...accountLimitOf(command.checks, reason), reason } }];

  const events: CardEvent[] = [{ type: 'CardAuthorizationApproved', data: recorded }];
  // A balance inquiry buys nothing: it neither locks a merchant-locked card nor uses up a single-use one.
  if (facts.kind === 'BALANCE_INQUIRY') return events;
  if (cardUse(card.cardType) === 'MERCHANT_LOCKED' && card.lockedMerchantKey === null) {
    events.push({ type: 'CardMerchantLocked', data: { cardToken: card.cardToken, merchantKey: merchantKey(facts.merchant), hostname: facts.merchant.descriptor } });
  }
  if (cardUse(card.cardType) === 'SINGLE_USE') events.push({ type: 'CardClosed', data: { cardToken: card.cardToken, reason: 'SINGLE_USE_SPENT' } });
  return events;
}

/**
 * Lithic's account limit that declined, recorded only on its decline: only the platform check gives a
 * GLOBAL_* result, and the program's endpoint is not asked once a platform limit declines.
 */
function accountLimitOf(checks: AuthorizationChecks, reason: DeclineReason): { accountLimit?: AccountLimit } {
  return checks.accountLimitExceeded !== undefined && reason === checks.globalLimitExceeded ? { accountLimit: checks.accountLimitExceeded } : {};
}

function declineReason({ facts, checks }: AuthorizeSpend, card: IssuedCard, now: Date, ruleDecline: DeclineReason | null): DeclineReason | null {
  if (checks.programState === 'CLOSED') return 'ACCOUNT_STATE_TRANSACTION_FAIL';
  if (checks.programState === 'PAUSED') return 'INACTIVE_ACCOUNT';
  if (card.state === 'CLOSED') return card.closedReason === 'SINGLE_USE_SPENT' ? 'SINGLE_USE_RECHARGED' : 'CARD_CLOSED';
  if (card.state === 'PAUSED') return 'CARD_PAUSED';
  // Lithic: a card not yet activated approves card-not-present purchases only. A presented PIN is the
  // one sign of a card present that a simulated authorization carries; the spec's nearest result is
  // CARD_PAUSED (the card exists and will work once its state is OPEN).
  if (isPendingState(card.state) && checks.presentedPinHash !== null) return 'CARD_PAUSED';
  if (checks.tokenDecline) return checks.tokenDecline;
  if (checks.cvvMatches === false || checks.expiryMatches === false || isExpiredAt({ month: card.expMonth, year: card.expYear }, now)) return 'INVALID_CARD_DETAILS';
  if (checks.presentedPinHash !== null && checks.presentedPinHash !== card.pinHash) return 'INCORRECT_PIN';
  if (checks.merchantBlocked) return 'MERCHANT_BLACKLIST';
  if (cardUse(card.cardType) === 'MERCHANT_LOCKED' && card.lockedMerchantKey !== null && card.lockedMerchantKey !== merchantKey(facts.merchant)) {
    return 'UNAUTHORIZED_MERCHANT';
  }
  if (checks.velocity && tooManyAttempts(card, checks.velocity, now)) return 'FRAUD_ADVICE';
  if (ruleDecline) return ruleDecline;
  if (exceedsSpendLimit(card.spendLimit, card.spendLimitDuration, card.spend, facts.amount, now)) return 'USER_TRANSACTION_LIMIT';
  if (checks.globalLimitExceeded) return checks.globalLimitExceeded;
  const funding = fundingDecline(checks.fundingState);
  if (funding) return funding;
  return checks.streamDecline;
}

/** Funding source states and what an authorization against them gets. */
export function fundingDecline(state: FundingSourceState): DeclineReason | null {
  switch (state) {
    case 'ENABLED':
      return null;
    case 'PENDING':
      return 'BANK_NOT_VERIFIED';
    case 'INSUFFICIENT_FUNDS':
      return 'INSUFFICIENT_FUNDS';
    case 'DISCONNECTED':
    case 'DELETED':
      return 'BANK_CONNECTION_ERROR';
    default:
      return undebitable(state);
  }
}

/** A state added to the union must be given its decline above; one from outside the types (a newer writer) cannot be debited. */
function undebitable(_state: never): DeclineReason {
  return 'BANK_CONNECTION_ERROR';
}

function tooManyAttempts(card: IssuedCard, rule: { maxAuthorizations: number; windowSeconds: number }, now: Date): boolean {
  const since = now.getTime() - rule.windowSeconds * 1000;
  return card.recentAttempts.filter((at) => Date.parse(at) > since).length >= rule.maxAuthorizations;
}

/**
 * Voids, clearings and advices move what a transaction counts. Only a newer transaction event than
 * the one last applied changes anything, so repeats and late replays are harmless.
 */
export function decideSpendAdjustment(command: AdjustSpend, card: Card): CardEvent[] {
  if (card.status !== 'issued') throw new CardNotFound(command.cardToken);
  const entry = card.spend.get(command.transactionToken);
  if (!entry || entry.version >= command.transactionVersion) return [];
  const { cardToken, transactionToken, transactionVersion, cause, amount } = command;
  return [{ type: 'CardSpendAdjusted', data: { cardToken, transactionToken, transactionVersion, cause, amount } }];
}

/** Returns are accepted on any card the program owns, paused or closed, and give spend back. */
export function decideReturnCredit(command: CreditReturn, card: Card): CardEvent[] {
  if (card.status !== 'issued') throw new CardNotFound(command.cardToken);
  if (card.spend.has(command.transactionToken)) return [];
  const { cardToken, transactionToken, eventToken, amount, at } = command;
  return [{ type: 'CardReturnCredited', data: { cardToken, transactionToken, eventToken, amount, at } }];
}
