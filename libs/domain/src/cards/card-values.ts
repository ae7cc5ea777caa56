/** The enumerations of spec section 2.1, as the API spells them. */
export const CARD_TYPES = ['SINGLE_USE', 'MERCHANT_LOCKED', 'DIGITAL_WALLET', 'UNLOCKED'] as const;
export type CardType = (typeof CARD_TYPES)[number];
/** UNLOCKED only appears on cards shown inside transactions; it cannot be created. */
export const CREATABLE_CARD_TYPES = ['SINGLE_USE', 'MERCHANT_LOCKED', 'DIGITAL_WALLET'] as const;
export type CreatableCardType = (typeof CREATABLE_CARD_TYPES)[number];

export const CARD_STATES = ['OPEN', 'PAUSED', 'CLOSED', 'PENDING_ACTIVATION', 'PENDING_FULFILLMENT'] as const;
export type CardState = (typeof CARD_STATES)[number];
export const CREATABLE_CARD_STATES = ['OPEN', 'PAUSED'] as const;
export type CreatableCardState = (typeof CREATABLE_CARD_STATES)[number];
export const UPDATABLE_CARD_STATES = ['OPEN', 'PAUSED', 'CLOSED'] as const;
export type UpdatableCardState = (typeof UPDATABLE_CARD_STATES)[number];

export const SPEND_LIMIT_DURATIONS = ['TRANSACTION', 'MONTHLY', 'ANNUALLY', 'FOREVER'] as const;
export type SpendLimitDuration = (typeof SPEND_LIMIT_DURATIONS)[number];

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
