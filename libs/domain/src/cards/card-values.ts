/**
 * The enumerations of spec section 2.1, as the API spells them, and Lithic's VIRTUAL and PHYSICAL
 * beside them. UNLOCKED appears in the spec's sample card; VIRTUAL is what Lithic calls the same
 * reusable card; PHYSICAL is a reusable card with a plastic that is shipped (card-fulfillment.ts).
 */
export const CARD_TYPES = ['SINGLE_USE', 'MERCHANT_LOCKED', 'DIGITAL_WALLET', 'UNLOCKED', 'VIRTUAL', 'PHYSICAL'] as const;
export type CardType = (typeof CARD_TYPES)[number];
/** Every type is creatable. */
export const CREATABLE_CARD_TYPES = CARD_TYPES;
export type CreatableCardType = CardType;

/**
 * How a type of card may be used, the one rule the authorization reads instead of type names:
 * a single-use card closes with its first approval, a merchant-locked card locks to its first
 * approved merchant, and every other type (DIGITAL_WALLET, UNLOCKED, VIRTUAL, PHYSICAL) is multi-use at
 * any merchant.
 */
export type CardUse = 'SINGLE_USE' | 'MERCHANT_LOCKED' | 'MULTI_USE';

export function cardUse(type: CardType): CardUse {
  switch (type) {
    case 'SINGLE_USE':
      return 'SINGLE_USE';
    case 'MERCHANT_LOCKED':
      return 'MERCHANT_LOCKED';
    case 'DIGITAL_WALLET':
    case 'UNLOCKED':
    case 'VIRTUAL':
    case 'PHYSICAL':
      return 'MULTI_USE';
  }
}

export const CARD_STATES = ['OPEN', 'PAUSED', 'CLOSED', 'PENDING_ACTIVATION', 'PENDING_FULFILLMENT'] as const;
export type CardState = (typeof CARD_STATES)[number];
export const CREATABLE_CARD_STATES = ['OPEN', 'PAUSED'] as const;
export type CreatableCardState = (typeof CREATABLE_CARD_STATES)[number];
export const UPDATABLE_CARD_STATES = ['OPEN', 'PAUSED', 'CLOSED'] as const;
/**
 * The states of a PHYSICAL card before its cardholder has it: ordered (PENDING_FULFILLMENT), then
 * shipped (PENDING_ACTIVATION) until an update to OPEN activates it. As Lithic's, such a card
 * approves card-not-present authorizations and declines card-present ones (card-authorization.ts).
 */
export const PENDING_CARD_STATES = ['PENDING_FULFILLMENT', 'PENDING_ACTIVATION'] as const;
export type PendingCardState = (typeof PENDING_CARD_STATES)[number];
export function isPendingState(state: CardState): state is PendingCardState {
  return (PENDING_CARD_STATES as readonly string[]).includes(state);
}
export type UpdatableCardState = (typeof UPDATABLE_CARD_STATES)[number];

/** The spec's durations and Lithic's DAILY (the trailing 24 hours, spend-window.ts). */
export const SPEND_LIMIT_DURATIONS = ['TRANSACTION', 'DAILY', 'MONTHLY', 'ANNUALLY', 'FOREVER'] as const;
export type SpendLimitDuration = (typeof SPEND_LIMIT_DURATIONS)[number];

/** Every card spends in US dollars: amounts are cents, and the merchant's currency is converted at authorization. */
export const CARDHOLDER_CURRENCY = 'USD';

/** Lithic's convention, adopted here: a spend limit of 0 means "no limit". */
export const NO_SPEND_LIMIT = 0;
export const DEFAULT_SPEND_LIMIT_DURATION: SpendLimitDuration = 'TRANSACTION';
export const DEFAULT_CARD_STATE: CreatableCardState = 'OPEN';
/** Generated expiry dates lie this many years after creation. */
export const GENERATED_EXPIRY_YEARS = 3;

export interface Expiry {
  /** Two digits, 01 to 12. */
  readonly month: string;
  /** Four digits. */
  readonly year: string;
}

/** What the edge derives from a new card number: the clear PAN never enters an event. */
export interface CardNumberSecrets {
  readonly lastFour: string;
  /** Keyed hash (HMAC) of the PAN: how a card is found by its number. */
  readonly panHash: string;
  /** PAN encrypted with the configured key. */
  readonly panEncrypted: string;
}

/** Generated expiries lie GENERATED_EXPIRY_YEARS ahead, in the current month. */
export function generatedExpiry(now: Date): Expiry {
  return {
    month: String(now.getUTCMonth() + 1).padStart(2, '0'),
    year: String(now.getUTCFullYear() + GENERATED_EXPIRY_YEARS),
  };
}

/** A card is valid through the last day of its expiry month: the one expiry rule, at creation and at every authorization. */
export function isExpiredAt(expiry: Expiry, now: Date): boolean {
  const year = Number(expiry.year);
  const month = Number(expiry.month);
  const currentYear = now.getUTCFullYear();
  return year < currentYear || (year === currentYear && month < now.getUTCMonth() + 1);
}
