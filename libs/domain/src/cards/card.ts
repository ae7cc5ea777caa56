import { assertNever, Decider, DecisionContext } from '../core/decider';
import { decideAuthorization, decideReturnCredit, decideSpendAdjustment, type AdjustSpend, type AuthorizeSpend, type CreditReturn } from './card-authorization';
import { evolveCard, ownedCard, type Card, type CardDetailsChanged, type CardEvent, type IssuedCard } from './card-state';
import { CardAlreadyExists, CardIsClosed, CardNotActivated, CardNotShipped, CardStateNotAllowed, ExpiryInThePast, ShippingNotApplicable, ShippingRequired } from './card-errors';
import { decideFulfillment, type FulfillmentCommand } from './card-fulfillment';
import { checkedShipping, type Shipping } from './shipping';
import {
  CardNumberSecrets,
  CardType,
  CreatableCardState,
  CREATABLE_CARD_STATES,
  DEFAULT_CARD_STATE,
  DEFAULT_SPEND_LIMIT_DURATION,
  Expiry,
  generatedExpiry,
  isExpiredAt,
  isPendingState,
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
  /** Required for a PHYSICAL card, refused for any other. */
  readonly shipping?: Shipping;
  /** Already checked by the caller to be a card of the program of the same type (card-replacement.ts). */
  readonly replacementFor?: string;
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

export type CardCommand = CreateCard | UpdateCard | AuthorizeSpend | AdjustSpend | CreditReturn | FulfillmentCommand;

// ---------------------------------------------------------------- decide

function decideCreate(command: CreateCard, card: Card, { now }: DecisionContext): CardEvent[] {
  if (card.status !== 'absent') throw new CardAlreadyExists(command.cardToken);
  const state = initialState(command);
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
        ...(command.shipping ? { shipping: command.shipping } : {}),
        ...(command.replacementFor ? { replacementFor: command.replacementFor } : {}),
      },
    },
  ];
}

/**
 * A PHYSICAL card is ordered with its plastic and starts PENDING_FULFILLMENT, whatever state a
 * virtual card could be given; every other type starts as asked (OPEN by default) and has no plastic.
 */
function initialState(command: CreateCard): CreatableCardState | 'PENDING_FULFILLMENT' {
  if (command.cardType === 'PHYSICAL') {
    if (!command.shipping) throw new ShippingRequired('a PHYSICAL card');
    if (command.state !== undefined) throw new CardStateNotAllowed(command.state, [], 'state', 'a PHYSICAL card starts PENDING_FULFILLMENT; state cannot be given');
    checkedShipping(command.shipping.address, command.shipping.method);
    return 'PENDING_FULFILLMENT';
  }
  if (command.shipping) throw new ShippingNotApplicable(command.cardType);
  const state = command.state ?? DEFAULT_CARD_STATE;
  if (!(CREATABLE_CARD_STATES as readonly string[]).includes(state)) throw new CardStateNotAllowed(state, CREATABLE_CARD_STATES);
  return state;
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
      if (isPendingState(card.state)) throw new CardNotActivated(cardToken);
      return [{ type: 'CardPaused', data: { cardToken } }];
    case 'OPEN':
      if (card.state === 'PENDING_FULFILLMENT') throw new CardNotShipped(cardToken);
      if (card.state === 'PENDING_ACTIVATION') return [{ type: 'CardActivated', data: { cardToken } }];
      return [{ type: 'CardResumed', data: { cardToken } }];
    case 'CLOSED':
      return [{ type: 'CardClosed', data: { cardToken, reason: 'REQUESTED' } }];
    default:
      return assertNever(target);
  }
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
    case 'ShipCard':
    case 'RenewCard':
    case 'ReissueCard':
    case 'ConvertCardToPhysical':
      return decideFulfillment(command, card, context);
    default:
      return assertNever(command);
  }
}

export const cardDecider: Decider<CardCommand, CardEvent, Card> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideCard,
  evolve: evolveCard,
};
