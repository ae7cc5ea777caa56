import { assertNever, Decider, DecisionContext } from '../core/decider';
import { decideAuthorization, decideReturnCredit, decideSpendAdjustment, type AdjustSpend, type AuthorizeSpend, type CreditReturn } from './card-authorization';
import { evolveCard, type Card, type CardDetailsChanged, type CardEvent, type IssuedCard } from './card-state';
import { CardAlreadyExists, CardIsClosed, CardNotFound, CardStateNotAllowed, ExpiryInThePast } from './card-errors';
import {
  CardNumberSecrets,
  CardType,
  CreatableCardState,
  CREATABLE_CARD_STATES,
  DEFAULT_CARD_STATE,
  DEFAULT_SPEND_LIMIT_DURATION,
  Expiry,
  GENERATED_EXPIRY_YEARS,
  isExpiredAt,
  NO_SPEND_LIMIT,
  SpendLimitDuration,
  UpdatableCardState,
} from './card-values';

export const cardStreamId = (cardToken: string): string => `card-${cardToken}`;
export const CARD_STREAM_CATEGORY = 'card';

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

export const cardDecider: Decider<CardCommand, CardEvent, Card> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideCard,
  evolve: evolveCard,
};
