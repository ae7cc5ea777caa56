import { assertNever, Decider, DecisionContext } from '../core/decider';
import type { GlobalLimitDecline } from '../programs/program-spend-limits';
import type { DeclineReason, Merchant } from '../transactions/transaction-values';
import { decideAuthorization, decideReturnCredit, decideSpendAdjustment } from './card-authorization';
import type { SpendEntry } from './spend-window';
import { CardAlreadyExists, CardIsClosed, CardNotFound, CardStateNotAllowed, ExpiryInThePast } from './card-errors';
import {
  CardNumberSecrets,
  CardState,
  CardType,
  CreatableCardState,
  CREATABLE_CARD_STATES,
  DEFAULT_CARD_STATE,
  DEFAULT_SPEND_LIMIT_DURATION,
  Expiry,
  GENERATED_EXPIRY_YEARS,
  NO_SPEND_LIMIT,
  SpendLimitDuration,
  UpdatableCardState,
} from './card-values';

export const cardStreamId = (cardToken: string): string => `card-${cardToken}`;
export const CARD_STREAM_CATEGORY = 'card';

// ---------------------------------------------------------------- events

export interface CardCreated {
  readonly type: 'CardCreated';
  readonly data: {
    readonly cardToken: string;
    readonly programToken: string;
    readonly cardType: CardType;
    readonly state: CreatableCardState;
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

export type SpendAdjustmentCause = 'ADVICE' | 'VOID' | 'CLEARING' | 'RETURN_REVERSAL';

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

export type CardEvent =
  | CardCreated
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
  | {
      readonly status: 'issued';
      readonly cardToken: string;
      readonly programToken: string;
      readonly cardType: CardType;
      readonly state: CardState;
      readonly memo: string;
      readonly spendLimit: number;
      readonly spendLimitDuration: SpendLimitDuration;
      readonly fundingToken: string;
      readonly expMonth: string;
      readonly expYear: string;
      readonly lastFour: string;
      readonly panHash: string;
      readonly panEncrypted: string;
      readonly pinHash: string | null;
      /** The merchant a MERCHANT_LOCKED card is locked to; empty until its first approval. */
      readonly hostname: string;
      readonly lockedMerchantKey: string | null;
      readonly closedReason: CardClosedReason | null;
      readonly created: string;
      /**
       * What counts against the spend limit, by transaction token, in card-event order (a Map keeps
       * the order entries were first added in; an adjustment changes an entry in its place). A
       * credit undoes only spend before it, so this order is part of the rule (spend-window.ts).
       */
      readonly spend: ReadonlyMap<string, SpendEntry>;
      /** Times of the latest authorization attempts, newest last, for the velocity rule. */
      readonly recentAttempts: readonly string[];
    };

export type IssuedCard = Extract<Card, { status: 'issued' }>;

// ---------------------------------------------------------------- commands

export interface CreateCard {
  readonly type: 'CreateCard';
  readonly cardToken: string;
  readonly programToken: string;
  readonly cardType: CardType;
  readonly state?: CreatableCardState;
  readonly memo?: string;
  readonly spendLimit?: number;
  readonly spendLimitDuration?: SpendLimitDuration;
  /** Already resolved by the caller to one of the program's funding sources. */
  readonly fundingToken: string;
  readonly expiry?: Expiry;
  readonly cardNumber: CardNumberSecrets;
  readonly pinHash?: string;
}

export interface UpdateCard {
  readonly type: 'UpdateCard';
  readonly cardToken: string;
  readonly programToken: string;
  readonly state?: UpdatableCardState;
  readonly memo?: string;
  readonly fundingToken?: string;
  readonly spendLimit?: number;
  readonly spendLimitDuration?: SpendLimitDuration;
  readonly pinHash?: string;
}

/** Facts about the program and the presented card details that the handler gathered for this decision. */
export interface AuthorizationChecks {
  readonly programState: 'ACTIVE' | 'PAUSED' | 'CLOSED';
  readonly merchantBlocked: boolean;
  readonly velocity: { readonly maxAuthorizations: number; readonly windowSeconds: number } | null;
  readonly globalLimitExceeded: GlobalLimitDecline | null;
  readonly fundingState: string;
  /** null when the request carried no CVV. */
  readonly cvvMatches: boolean | null;
  /** null when the request carried no expiry. */
  readonly expiryMatches: boolean | null;
  /** Keyed hash of the presented PIN; null when none was presented. */
  readonly presentedPinHash: string | null;
  /** The program's own authorization endpoint, when it answered with a decline. */
  readonly streamDecline: DeclineReason | null;
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

export type CardCommand = CreateCard | UpdateCard | AuthorizeSpend | AdjustSpend | CreditReturn;

// ---------------------------------------------------------------- decide

function decideCreate(command: CreateCard, card: Card, { now }: DecisionContext): CardEvent[] {
  if (card.status !== 'absent') throw new CardAlreadyExists(command.cardToken);
  const state = command.state ?? DEFAULT_CARD_STATE;
  if (!(CREATABLE_CARD_STATES as readonly string[]).includes(state)) {
    throw new CardStateNotAllowed(state, CREATABLE_CARD_STATES);
  }
  const expiry = command.expiry ?? generatedExpiry(now);
  if (isExpiredAt(expiry, now)) throw new ExpiryInThePast(expiry.month, expiry.year);
  return [
    {
      type: 'CardCreated',
      data: {
        cardToken: command.cardToken,
        programToken: command.programToken,
        cardType: command.cardType,
        state,
        memo: command.memo ?? '',
        spendLimit: command.spendLimit ?? NO_SPEND_LIMIT,
        spendLimitDuration: command.spendLimitDuration ?? DEFAULT_SPEND_LIMIT_DURATION,
        fundingToken: command.fundingToken,
        expMonth: expiry.month,
        expYear: expiry.year,
        lastFour: command.cardNumber.lastFour,
        panHash: command.cardNumber.panHash,
        panEncrypted: command.cardNumber.panEncrypted,
        pinHash: command.pinHash ?? null,
        created: now.toISOString(),
      },
    },
  ];
}

function decideUpdate(command: UpdateCard, card: Card): CardEvent[] {
  const issued = ownedCard(card, command.cardToken, command.programToken);
  if (issued.state === 'CLOSED') throw new CardIsClosed(command.cardToken);
  return [...detailChanges(command, issued), ...stateChange(command, issued)];
}

function detailChanges(command: UpdateCard, card: IssuedCard): CardEvent[] {
  const changes: { -readonly [K in keyof CardDetailsChanged['data']]?: CardDetailsChanged['data'][K] } = {};
  if (command.memo !== undefined && command.memo !== card.memo) changes.memo = command.memo;
  if (command.fundingToken !== undefined && command.fundingToken !== card.fundingToken) changes.fundingToken = command.fundingToken;
  if (command.spendLimit !== undefined && command.spendLimit !== card.spendLimit) changes.spendLimit = command.spendLimit;
  if (command.spendLimitDuration !== undefined && command.spendLimitDuration !== card.spendLimitDuration) {
    changes.spendLimitDuration = command.spendLimitDuration;
  }
  if (command.pinHash !== undefined && command.pinHash !== card.pinHash) changes.pinHash = command.pinHash;
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'CardDetailsChanged', data: { cardToken: card.cardToken, ...changes } }];
}

function stateChange(command: UpdateCard, card: IssuedCard): CardEvent[] {
  const target = command.state;
  if (target === undefined || target === card.state) return [];
  const cardToken = card.cardToken;
  switch (target) {
    case 'PAUSED':
      return [{ type: 'CardPaused', data: { cardToken } }];
    case 'OPEN':
      return [{ type: 'CardResumed', data: { cardToken } }];
    case 'CLOSED':
      return [{ type: 'CardClosed', data: { cardToken, reason: 'REQUESTED' } }];
    default:
      return assertNever(target);
  }
}

/** A card of another program is reported exactly like a missing one. */
export function ownedCard(card: Card, cardToken: string, programToken: string): IssuedCard {
  if (card.status !== 'issued' || card.programToken !== programToken) throw new CardNotFound(cardToken);
  return card;
}

function generatedExpiry(now: Date): Expiry {
  return {
    month: String(now.getUTCMonth() + 1).padStart(2, '0'),
    year: String(now.getUTCFullYear() + GENERATED_EXPIRY_YEARS),
  };
}

/** A card is valid through the last day of its expiry month. */
function isExpiredAt(expiry: Expiry, now: Date): boolean {
  const year = Number(expiry.year);
  const month = Number(expiry.month);
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return year < currentYear || (year === currentYear && month < currentMonth);
}

export function decideCard(command: CardCommand, card: Card, context: DecisionContext): CardEvent[] {
  switch (command.type) {
    case 'CreateCard':
      return decideCreate(command, card, context);
    case 'UpdateCard':
      return decideUpdate(command, card);
    case 'AuthorizeSpend':
      return decideAuthorization(command, card, context.now);
    case 'AdjustSpend':
      return decideSpendAdjustment(command, card);
    case 'CreditReturn':
      return decideReturnCredit(command, card);
    default:
      return assertNever(command);
  }
}

// ---------------------------------------------------------------- evolve

export function evolveCard(card: Card, event: CardEvent): Card {
  switch (event.type) {
    case 'CardCreated': {
      const { state, ...data } = event.data;
      return {
        status: 'issued',
        ...data,
        state,
        hostname: '',
        lockedMerchantKey: null,
        closedReason: null,
        spend: new Map(),
        recentAttempts: [],
      };
    }
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
        spend: withEntry(card, event.data.transactionToken, { at: event.data.at, amount: event.data.amount, version: 0 }),
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
      return { ...card, spend: withEntry(card, event.data.transactionToken, { ...entry, amount: event.data.amount, version: event.data.transactionVersion }) };
    }
    case 'CardReturnCredited':
      if (card.status !== 'issued') return card;
      return { ...card, spend: withEntry(card, event.data.transactionToken, { at: event.data.at, amount: -event.data.amount, version: 0 }) };
    default:
      return assertNever(event);
  }
}

/** A new entry goes last (event order); an existing one is replaced where it stands. */
function withEntry(card: IssuedCard, transactionToken: string, entry: SpendEntry): ReadonlyMap<string, SpendEntry> {
  return new Map(card.spend).set(transactionToken, entry);
}

/** The velocity rule never looks further back than this many attempts. */
export const MAX_TRACKED_ATTEMPTS = 100;

function attempted(card: IssuedCard, at: string): readonly string[] {
  return [...card.recentAttempts, at].slice(-MAX_TRACKED_ATTEMPTS);
}

export const cardDecider: Decider<CardCommand, CardEvent, Card> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideCard,
  evolve: evolveCard,
};
