import { deciderSpecification } from '@ledger/test-support';
import { cardDecider, CreateCard, UpdateCard } from './card';
import { CardCreated, CardEvent } from './card-state';
import { CardAlreadyExists, CardIsClosed, CardNotFound, CardStateNotAllowed, ExpiryInThePast } from './card-errors';
import { cardCreated } from '../../test/card-fixtures';
import { cardToken, fundingToken, now, programToken } from '../../test/fixtures';

const spec = deciderSpecification(cardDecider, { now });
const cardNumber = { lastFour: '1111', panHash: 'hash-of-pan', panEncrypted: 'v1:cipher' };

const create = (overrides: Partial<CreateCard> = {}): CreateCard => ({
  type: 'CreateCard',
  cardToken,
  programToken,
  cardType: 'MERCHANT_LOCKED',
  fundingToken,
  cardNumber,
  ...overrides,
});

/** What CreateCard with no options records: no limit, and the expiry three years ahead. */
const created = (overrides: Partial<CardCreated['data']> = {}): CardCreated =>
  cardCreated({ cardType: 'MERCHANT_LOCKED', spendLimit: 0, created: '2026-11-22T10:15:30.000Z', ...overrides });

const update = (overrides: Partial<UpdateCard>): UpdateCard => ({ type: 'UpdateCard', cardToken, programToken, ...overrides });
const paused: CardEvent = { type: 'CardPaused', data: { cardToken } };
const resumed: CardEvent = { type: 'CardResumed', data: { cardToken } };
const closed: CardEvent = { type: 'CardClosed', data: { cardToken, reason: 'REQUESTED' } };

describe('card aggregate', () => {
  describe('create', () => {
    it('creates an OPEN card with generated expiry, no limit and TRANSACTION duration by default', () => {
      spec.given([]).when(create()).then([created()]);
    });

    it('creates a PAUSED card when asked', () => {
      spec.given([]).when(create({ state: 'PAUSED' })).then([created({ state: 'PAUSED' })]);
    });

    it('keeps every given field', () => {
      spec
        .given([])
        .when(create({ memo: 'Groceries', spendLimit: 5000, spendLimitDuration: 'MONTHLY', expiry: { month: '03', year: '2030' }, cardType: 'SINGLE_USE' }))
        .then([created({ memo: 'Groceries', spendLimit: 5000, spendLimitDuration: 'MONTHLY', expMonth: '03', expYear: '2030', cardType: 'SINGLE_USE' })]);
    });

    it.each(['VIRTUAL', 'UNLOCKED'] as const)('creates a %s card (Lithic\'s reusable card, the spec\'s sample type)', (cardType) => {
      spec.given([]).when(create({ cardType })).then([created({ cardType })]);
    });

    it('keeps a DAILY spend-limit duration', () => {
      spec.given([]).when(create({ spendLimit: 2500, spendLimitDuration: 'DAILY' })).then([created({ spendLimit: 2500, spendLimitDuration: 'DAILY' })]);
    });

    it('accepts an expiry in the current month', () => {
      spec.given([]).when(create({ expiry: { month: '11', year: '2026' } })).then([created({ expMonth: '11', expYear: '2026' })]);
    });

    it('refuses an expiry in the past', () => {
      spec.given([]).when(create({ expiry: { month: '10', year: '2026' } })).thenThrows(ExpiryInThePast);
    });

    it.each(['CLOSED', 'PENDING_ACTIVATION', 'PENDING_FULFILLMENT'])('refuses to create a card in state %s', (state) => {
      spec
        .given([])
        .when(create({ state: state as 'OPEN' }))
        .thenThrows(CardStateNotAllowed, 'state must be one of OPEN, PAUSED');
    });

    it('refuses a second create of the same card', () => {
      spec.given([created()]).when(create()).thenThrows(CardAlreadyExists);
    });
  });

  describe('state moves of spec 3.1', () => {
    it('pauses an OPEN card', () => spec.given([created()]).when(update({ state: 'PAUSED' })).then([paused]));
    it('resumes a PAUSED card', () => spec.given([created(), paused]).when(update({ state: 'OPEN' })).then([resumed]));
    it('resumes a card created PAUSED', () => spec.given([created({ state: 'PAUSED' })]).when(update({ state: 'OPEN' })).then([resumed]));
    it('closes an OPEN card', () => spec.given([created()]).when(update({ state: 'CLOSED' })).then([closed]));
    it('closes a PAUSED card', () => spec.given([created(), paused]).when(update({ state: 'CLOSED' })).then([closed]));
    it('records nothing when the state is already the one asked for', () => {
      spec.given([created(), paused]).when(update({ state: 'PAUSED' })).then([]);
    });

    it.each(['OPEN', 'PAUSED', 'CLOSED'] as const)('refuses to move a CLOSED card to %s', (state) => {
      spec.given([created(), closed]).when(update({ state })).thenThrows(CardIsClosed);
    });

    it('refuses any other change to a CLOSED card', () => {
      spec.given([created(), closed]).when(update({ memo: 'again' })).thenThrows(CardIsClosed);
    });
  });

  describe('update', () => {
    it('records only the fields that changed', () => {
      spec
        .given([created({ memo: 'same' })])
        .when(update({ memo: 'same', spendLimit: 1000, spendLimitDuration: 'FOREVER', fundingToken }))
        .then([{ type: 'CardDetailsChanged', data: { cardToken, spendLimit: 1000, spendLimitDuration: 'FOREVER' } }]);
    });

    it('records details before a state change made in the same update', () => {
      spec
        .given([created()])
        .when(update({ memo: 'paused for now', state: 'PAUSED' }))
        .then([{ type: 'CardDetailsChanged', data: { cardToken, memo: 'paused for now' } }, paused]);
    });

    it('records nothing for an empty update', () => spec.given([created()]).when(update({})).then([]));

    it('answers not found for an unknown card', () => {
      spec.given([]).when(update({ memo: 'x' })).thenThrows(CardNotFound);
    });

    it("answers not found for another program's card", () => {
      spec.given([created()]).when(update({ programToken: '00000000-0000-4000-8000-000000000000', memo: 'x' })).thenThrows(CardNotFound);
    });
  });

  describe('evolve', () => {
    it('folds details, pauses and closes into the state', () => {
      const state = [created(), { type: 'CardDetailsChanged', data: { cardToken, memo: 'm', spendLimit: 700 } } as CardEvent, paused, resumed, closed].reduce(
        cardDecider.evolve,
        cardDecider.initialState(),
      );
      expect(state).toMatchObject({ status: 'issued', memo: 'm', spendLimit: 700, state: 'CLOSED', hostname: '' });
    });
  });
});
