import type { CardholderAuthentication } from '../three-ds/cardholder-authentication';
import { assertNever } from '../core/decider';
import type { AuthRuleResult } from '../auth-rules/auth-rule-evaluation';
import type { AuthorizationPos } from './authorization-pos';
import type { AccountLimit } from '../programs/program-spend-limits';
import type { TokenInfo } from '../tokenizations/token-spend';
import type { AuthorizationKind, DeclineReason, Merchant } from '../transactions/transaction-values';
import { SpendHistory } from './spend-history';
import { CardNotFound } from './card-errors';
import type { CardState, CardType, CreatableCardState, SpendLimitDuration } from './card-values';
import type { Shipping } from './shipping';

/**
 * What a card is: the events that happen to it, the state they fold into, and the fold (evolveCard).
 * The decisions are in card.ts and card-authorization.ts; both read this state.
 */

// ---------------------------------------------------------------- events

/** What a card is issued with: CardCreated records it, and the card's state keeps it (changed by later events). */
export interface CardIssue {
  readonly cardToken: string;
  readonly programToken: string;
  readonly cardType: CardType;
  readonly memo: string;
  readonly spendLimit: number;
  readonly spendLimitDuration: SpendLimitDuration;
  readonly fundingToken: string;
  readonly expMonth: string;
  readonly expYear: string;
  readonly lastFour: string;
  readonly panHash: string;
  readonly panEncrypted: string;
  /** Keyed hash of the card's PIN; null when the card has none. */
  readonly pinHash: string | null;
  readonly created: string;
}

export interface CardCreated {
  readonly type: 'CardCreated';
  readonly data: CardIssue & {
    /** A PHYSICAL card starts PENDING_FULFILLMENT: its plastic is ordered with it. */
    readonly state: CreatableCardState | 'PENDING_FULFILLMENT';
    /** The plastic ordered with a PHYSICAL card; absent for every other type. */
    readonly shipping?: Shipping;
    /** The card this one replaces (Lithic's replacement_for); absent when it replaces none. */
    readonly replacementFor?: string;
  };
}

/** Only the fields that changed are present. */
export interface CardDetailsChanged {
  readonly type: 'CardDetailsChanged';
  readonly data: {
    readonly cardToken: string;
    readonly memo?: string;
    readonly fundingToken?: string;
    readonly spendLimit?: number;
    readonly spendLimitDuration?: SpendLimitDuration;
    readonly pinHash?: string;
  };
}

export interface CardPaused {
  readonly type: 'CardPaused';
  readonly data: { readonly cardToken: string };
}

export interface CardResumed {
  readonly type: 'CardResumed';
  readonly data: { readonly cardToken: string };
}

export type CardClosedReason = 'REQUESTED' | 'SINGLE_USE_SPENT';

export interface CardClosed {
  readonly type: 'CardClosed';
  readonly data: { readonly cardToken: string; readonly reason: CardClosedReason };
}

/** What an authorization carried, recorded on the card so its transaction can always be rebuilt. */
export interface AuthorizationFacts {
  readonly cardToken: string;
  readonly programToken: string;
  readonly transactionToken: string;
  /** Token of the AUTHORIZATION event shown on the transaction. */
  readonly eventToken: string;
  readonly amount: number;
  readonly merchant: Merchant;
  readonly merchantAmount: number;
  readonly merchantCurrency: string;
  readonly authorizationCode: string;
  readonly fundingToken: string;
  readonly at: string;
  /**
   * Lithic's kind of message, when it is not a plain purchase authorization (or a plain return):
   * absent in every event recorded before kinds existed, which are exactly those.
   */
  readonly kind?: AuthorizationKind;
  /** On a decline by one of Lithic's account limits (daily, lifetime): which one; absent otherwise. */
  readonly accountLimit?: AccountLimit;
  /** The point of sale's facts (entry mode, wallet, cash), when the request gave any; absent otherwise. */
  readonly pos?: AuthorizationPos;
  /** What the program's Auth Rules answered, when any ran on the card (card-auth-rules.ts); absent when none did. */
  readonly ruleResults?: readonly AuthRuleResult[];
  /** The 3DS authentication the authorization named, as it stood then; absent when it named none. */
  readonly cardholderAuthentication?: CardholderAuthentication;
  /** The wallet token the authorization came through (token-spend.ts); absent for the card's own number. */
  readonly tokenInfo?: TokenInfo;
}

export interface CardAuthorizationApproved {
  readonly type: 'CardAuthorizationApproved';
  readonly data: AuthorizationFacts;
}

export interface CardAuthorizationDeclined {
  readonly type: 'CardAuthorizationDeclined';
  readonly data: AuthorizationFacts & { readonly reason: DeclineReason };
}

/** A MERCHANT_LOCKED card's first approved merchant: every later authorization must come from it. */
export interface CardMerchantLocked {
  readonly type: 'CardMerchantLocked';
  readonly data: { readonly cardToken: string; readonly merchantKey: string; readonly hostname: string };
}

export type SpendAdjustmentCause = 'ADVICE' | 'VOID' | 'CLEARING' | 'RETURN_REVERSAL' | 'EXPIRY';

/** The amount a transaction counts against the card's limits is now `amount`. */
export interface CardSpendAdjusted {
  readonly type: 'CardSpendAdjusted';
  readonly data: {
    readonly cardToken: string;
    readonly transactionToken: string;
    /**
     * Version of the transaction-stream event that caused it. The card keeps the latest version it
     * applied per transaction, so a repeat or a late, older adjustment changes nothing.
     */
    readonly transactionVersion: number;
    readonly cause: SpendAdjustmentCause;
    readonly amount: number;
  };
}

/**
 * A return gives back spend made before it (in card-event order), counted in the window where the
 * return happened; it never makes room for later spend (spend-window.ts).
 */
export interface CardReturnCredited {
  readonly type: 'CardReturnCredited';
  readonly data: { readonly cardToken: string; readonly transactionToken: string; readonly eventToken: string; readonly amount: number; readonly at: string };
}

/** A card's plastic left the manufacturer (simulated in the sandbox): a new card awaits activation. */
export interface CardShipped {
  readonly type: 'CardShipped';
  readonly data: { readonly cardToken: string; readonly shippingMethod: Shipping['method']; readonly trackingNumber: string | null; readonly at: string };
}

/** The cardholder has the plastic: a PENDING_ACTIVATION card is OPEN. */
export interface CardActivated {
  readonly type: 'CardActivated';
  readonly data: { readonly cardToken: string };
}

/**
 * Same token and PAN, a new expiry (hence a new CVV, which is derived from PAN and expiry); a
 * PHYSICAL card's new plastic is ordered with it. Limits, state and spend carry on unchanged.
 */
export interface CardRenewed {
  readonly type: 'CardRenewed';
  readonly data: {
    readonly cardToken: string;
    readonly expMonth: string;
    readonly expYear: string;
    readonly previousExpMonth: string;
    readonly previousExpYear: string;
    /** The new plastic of a PHYSICAL card; null for a card without one. */
    readonly shipping: Shipping | null;
    readonly at: string;
  };
}

/** A duplicate plastic of a PHYSICAL card: same PAN, expiry and CVV. */
export interface CardReissued {
  readonly type: 'CardReissued';
  readonly data: { readonly cardToken: string; readonly shipping: Shipping; readonly at: string };
}

/** A virtual card becomes PHYSICAL, same token and PAN, its plastic ordered: PENDING_FULFILLMENT as a new PHYSICAL card. */
export interface CardConvertedToPhysical {
  readonly type: 'CardConvertedToPhysical';
  readonly data: { readonly cardToken: string; readonly previousType: CardType; readonly shipping: Shipping; readonly at: string };
}

export type CardEvent =
  | CardCreated
  | CardShipped
  | CardActivated
  | CardRenewed
  | CardReissued
  | CardConvertedToPhysical
  | CardDetailsChanged
  | CardPaused
  | CardResumed
  | CardClosed
  | CardAuthorizationApproved
  | CardAuthorizationDeclined
  | CardMerchantLocked
  | CardSpendAdjusted
  | CardReturnCredited;
export type CardEventType = CardEvent['type'];

// ---------------------------------------------------------------- state

export type Card =
  | { readonly status: 'absent' }
  | (CardIssue & {
      readonly status: 'issued';
      readonly state: CardState;
      /** The merchant a MERCHANT_LOCKED card is locked to; empty until its first approval. */
      readonly hostname: string;
      readonly lockedMerchantKey: string | null;
      readonly closedReason: CardClosedReason | null;
      /**
       * What counts against the spend limit, one entry per transaction token, in card-event order
       * (an entry stays where it was first added; an adjustment changes it in its place). A credit
       * undoes only spend before it, so this order is part of the rule (spend-window.ts).
       */
      readonly spend: SpendHistory;
      /** Times of the latest authorization attempts, newest last, for the velocity rule. */
      readonly recentAttempts: readonly string[];
      /** The latest plastic ordered for the card and whether it has shipped; null for a card that never had one. */
      readonly plastic: Plastic | null;
      /** The product (card art) of the latest plastic; null when none was named. */
      readonly productId: string | null;
      readonly replacementFor: string | null;
      /** Plastics ordered again after the first (renewals of a PHYSICAL card and reissues): Lithic allows 8. */
      readonly plasticReorders: number;
    });

export interface Plastic extends Shipping {
  readonly status: 'ORDERED' | 'SHIPPED';
}

export type IssuedCard = Extract<Card, { status: 'issued' }>;

/** A card of another program is reported exactly like a missing one. */
export function ownedCard(card: Card, cardToken: string, programToken: string): IssuedCard {
  if (card.status !== 'issued' || card.programToken !== programToken) throw new CardNotFound(cardToken);
  return card;
}

// ---------------------------------------------------------------- evolve

export function evolveCard(card: Card, event: CardEvent): Card {
  switch (event.type) {
    case 'CardCreated': {
      const { state, shipping, replacementFor, ...data } = event.data;
      return {
        status: 'issued',
        ...data,
        state,
        hostname: '',
        lockedMerchantKey: null,
        closedReason: null,
        spend: SpendHistory.EMPTY,
        recentAttempts: [],
        plastic: shipping ? ordered(shipping) : null,
        productId: shipping?.productId ?? null,
        replacementFor: replacementFor ?? null,
        plasticReorders: 0,
      };
    }
    case 'CardShipped':
      if (card.status !== 'issued') return card;
      return {
        ...card,
        state: card.state === 'PENDING_FULFILLMENT' ? 'PENDING_ACTIVATION' : card.state,
        plastic: card.plastic && { ...card.plastic, status: 'SHIPPED' },
      };
    case 'CardActivated':
      return card.status === 'issued' ? { ...card, state: 'OPEN' } : card;
    case 'CardRenewed': {
      if (card.status !== 'issued') return card;
      const { expMonth, expYear, shipping } = event.data;
      return shipping ? { ...reordered(card, shipping), expMonth, expYear } : { ...card, expMonth, expYear };
    }
    case 'CardReissued':
      return card.status === 'issued' ? reordered(card, event.data.shipping) : card;
    case 'CardConvertedToPhysical':
      if (card.status !== 'issued') return card;
      return { ...card, cardType: 'PHYSICAL', state: 'PENDING_FULFILLMENT', plastic: ordered(event.data.shipping), productId: event.data.shipping.productId };
    case 'CardDetailsChanged': {
      if (card.status !== 'issued') return card;
      const { cardToken: _ignored, ...changes } = event.data;
      return { ...card, ...changes };
    }
    case 'CardPaused':
      return card.status === 'issued' ? { ...card, state: 'PAUSED' } : card;
    case 'CardResumed':
      return card.status === 'issued' ? { ...card, state: 'OPEN' } : card;
    case 'CardClosed':
      return card.status === 'issued' ? { ...card, state: 'CLOSED', closedReason: event.data.reason } : card;
    case 'CardAuthorizationApproved':
      if (card.status !== 'issued') return card;
      return {
        ...card,
        spend: card.spend.withEntry({ transactionToken: event.data.transactionToken, at: Date.parse(event.data.at), amount: event.data.amount, version: 0 }),
        recentAttempts: attempted(card, event.data.at),
      };
    case 'CardAuthorizationDeclined':
      return card.status === 'issued' ? { ...card, recentAttempts: attempted(card, event.data.at) } : card;
    case 'CardMerchantLocked':
      return card.status === 'issued' ? { ...card, lockedMerchantKey: event.data.merchantKey, hostname: event.data.hostname } : card;
    case 'CardSpendAdjusted': {
      if (card.status !== 'issued') return card;
      const entry = card.spend.get(event.data.transactionToken);
      if (!entry) return card;
      return { ...card, spend: card.spend.withEntry({ ...entry, amount: event.data.amount, version: event.data.transactionVersion }) };
    }
    case 'CardReturnCredited':
      if (card.status !== 'issued') return card;
      return {
        ...card,
        spend: card.spend.withEntry({ transactionToken: event.data.transactionToken, at: Date.parse(event.data.at), amount: -event.data.amount, version: 0 }),
      };
    default:
      return assertNever(event);
  }
}



function ordered(shipping: Shipping): Plastic {
  return { ...shipping, status: 'ORDERED' };
}

/** Another plastic for a card that has one: the card keeps its state and works on while the new one travels. */
function reordered(card: IssuedCard, shipping: Shipping): IssuedCard {
  return { ...card, plastic: ordered(shipping), productId: shipping.productId, plasticReorders: card.plasticReorders + 1 };
}

/** The velocity rule never looks further back than this many attempts. */
export const MAX_TRACKED_ATTEMPTS = 100;

function attempted(card: IssuedCard, at: string): readonly string[] {
  return [...card.recentAttempts, at].slice(-MAX_TRACKED_ATTEMPTS);
}
