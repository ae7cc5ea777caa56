import type { PanEntryMode } from '../auth-rules/auth-rule-parameters';
import { posFactsOf } from './authorization-pos';
import type { AuthorizationFacts, CardEvent } from './card-state';
import { merchantKey } from './merchant-lock';

/**
 * What a card's own authorizations say about how it is used: the history the Auth Rules read (the
 * CARD_TRANSACTION_COUNT_* and CARD_DECLINE_COUNT_* windows, IS_FIRST_TRANSACTION, IS_NEW_COUNTRY,
 * IS_NEW_MCC, IS_NEW_MERCHANT, CONSECUTIVE_DECLINES, TIME_SINCE_LAST_TRANSACTION,
 * DISTINCT_COUNTRY_COUNT) and a card-scoped velocity limit counts. Folded from the approvals and
 * declines the card stream already records, so a rule decided on the card's stream sees exactly the
 * history its expected version vouches for.
 *
 * A fold of its own beside the card's (cardActivityFolder), not a part of it: it is read only for an
 * authorization its program has rules for, so a card whose program has none pays nothing for it
 * (its lists are copied on each event, which the card's own fold, kept O(1) per event for long
 * histories, must not pay).
 *
 * "Transactions" here are approved authorizations; declined ones count only where Lithic names them
 * (the decline windows, CONSECUTIVE_DECLINES). A decline is an attempt, not a purchase: a card that
 * was refused somewhere has still not bought there.
 *
 * What the fold keeps is bounded, each list by the reason it is kept:
 * - approvals: those of the last 366 days (the longest velocity window, a YEAR fixed window, and the
 *   90-day trailing maximum within it). A card's approvals in a year are bounded by its use: a card
 *   that buys a thousand times a year keeps a thousand entries;
 * - declines: those of the last 24 hours (the longest decline window); consecutive declines: those
 *   since the last approval, within Lithic's 30 days;
 * - countries: ISO 3166 has under 300 codes; MCCs: ISO 18245 codes are four digits (at most 10,000);
 * - merchants: the 1,000 most recently approved, Lithic's own cap for IS_NEW_MERCHANT.
 */
export interface CardActivity {
  readonly approvals: readonly ApprovedAuthorization[];
  readonly declines: readonly number[];
  readonly consecutiveDeclines: readonly number[];
  readonly lastApprovedAt: number | null;
  readonly countries: readonly string[];
  readonly mccs: readonly string[];
  /** Most recent last. */
  readonly merchants: readonly string[];
}

/** An approval as a velocity limit filters and counts it; times are epoch milliseconds. */
export interface ApprovedAuthorization {
  readonly transactionToken: string;
  readonly at: number;
  /** What the transaction counts now: a void, a clearing or an advice moves it. */
  readonly amount: number;
  readonly mcc: string;
  readonly country: string;
  readonly panEntryMode: PanEntryMode;
  /** Voided in full: no longer a spend-velocity-impacting transaction. */
  readonly voided: boolean;
}

/**
 * What a velocity limit's filters read of an authorization: its merchant's MCC and country and its
 * entry mode. An approval keeps them here for the card's limits; the ACCOUNT counters count them too.
 */
export function velocityFactsOf(facts: Pick<AuthorizationFacts, 'merchant' | 'pos'>): Pick<ApprovedAuthorization, 'mcc' | 'country' | 'panEntryMode'> {
  return { mcc: facts.merchant.mcc, country: facts.merchant.country, panEntryMode: posFactsOf(facts.pos).panEntryMode };
}

const DAY_MS = 86_400_000;
export const APPROVALS_KEPT_MS = 366 * DAY_MS;
export const DECLINES_KEPT_MS = DAY_MS;
export const CONSECUTIVE_DECLINES_KEPT_MS = 30 * DAY_MS;
export const MERCHANTS_KEPT = 1000;

export const NO_CARD_ACTIVITY: CardActivity = { approvals: [], declines: [], consecutiveDeclines: [], lastApprovedAt: null, countries: [], mccs: [], merchants: [] };

export type { AuthorizationPos } from './authorization-pos';

/** The card stream folded for its activity alone: what the handler reads when the program has rules. */
export const cardActivityFolder = {
  initialState: (): CardActivity => NO_CARD_ACTIVITY,
  evolve: (activity: CardActivity, event: CardEvent): CardActivity => cardActivityAfter(activity, event),
};

export function cardActivityAfter(activity: CardActivity, event: CardEvent): CardActivity {
  switch (event.type) {
    case 'CardAuthorizationApproved':
      return approved(activity, event.data);
    case 'CardAuthorizationDeclined':
      return declined(activity, Date.parse(event.data.at));
    case 'CardSpendAdjusted': {
      const { transactionToken, amount, cause } = event.data;
      if (!activity.approvals.some((approval) => approval.transactionToken === transactionToken)) return activity;
      return {
        ...activity,
        approvals: activity.approvals.map((approval) => (approval.transactionToken === transactionToken ? { ...approval, amount, voided: cause === 'VOID' && amount === 0 } : approval)),
      };
    }
    default:
      return activity;
  }
}

function approved(activity: CardActivity, facts: AuthorizationFacts): CardActivity {
  const at = Date.parse(facts.at);
  const approval: ApprovedAuthorization = {
    transactionToken: facts.transactionToken,
    at,
    amount: facts.amount,
    ...velocityFactsOf(facts),
    voided: false,
  };
  const merchant = merchantKey(facts.merchant);
  return {
    approvals: [...activity.approvals.filter((kept) => kept.at > at - APPROVALS_KEPT_MS), approval],
    declines: activity.declines.filter((kept) => kept > at - DECLINES_KEPT_MS),
    consecutiveDeclines: [],
    lastApprovedAt: at,
    countries: withMember(activity.countries, facts.merchant.country),
    mccs: withMember(activity.mccs, facts.merchant.mcc),
    merchants: [...activity.merchants.filter((kept) => kept !== merchant), merchant].slice(-MERCHANTS_KEPT),
  };
}

function declined(activity: CardActivity, at: number): CardActivity {
  return {
    ...activity,
    declines: [...activity.declines.filter((kept) => kept > at - DECLINES_KEPT_MS), at],
    consecutiveDeclines: [...activity.consecutiveDeclines.filter((kept) => kept > at - CONSECUTIVE_DECLINES_KEPT_MS), at],
  };
}

function withMember(set: readonly string[], member: string): readonly string[] {
  return set.includes(member) ? set : [...set, member];
}
