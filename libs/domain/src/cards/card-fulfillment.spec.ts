import { deciderSpecification } from '@ledger/test-support';
import { foldEvents } from '../core/decider';
import { cardDecider, type CreateCard, type UpdateCard } from './card';
import type { AuthorizeSpend } from './card-authorization';
import type { CardCreated, CardEvent, IssuedCard } from './card-state';
import {
  CardIsClosed,
  CardMustBeOpen,
  CardNotActivated,
  CardNotFound,
  CardNotShipped,
  CardStateNotAllowed,
  CardTypeNotAllowed,
  NoPlasticToShip,
  ReplacedCardNotFound,
  ReplacementTypeMismatch,
  ShippingNotApplicable,
  ShippingRequired,
  TooManyPlastics,
} from './card-errors';
import { MAX_PLASTIC_REORDERS, type ConvertCardToPhysical, type ReissueCard, type RenewCard, type ShipCard } from './card-fulfillment';
import { replacementTerms } from './card-replacement';
import type { Shipping, ShippingAddress } from './shipping';
import { InvalidInput } from '../core/domain-error';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { cardToken, coffeeShop, fundingToken, now, otherProgramToken, programToken } from '../../test/fixtures';

const spec = deciderSpecification(cardDecider, { now });
const at = now.toISOString();

const janet: ShippingAddress = { firstName: 'Janet', lastName: 'Yellen', address1: '5 Broad Street', city: 'NEW YORK', state: 'NY', postalCode: '10001', country: 'USA' };
const standard: Shipping = { address: janet, method: 'STANDARD', productId: null };
const express: Shipping = { address: { ...janet, address1: '1 Main Street' }, method: 'EXPRESS', productId: '100' };

const createPhysical = (overrides: Partial<CreateCard> = {}): CreateCard => ({
  type: 'CreateCard',
  cardToken,
  programToken,
  cardType: 'PHYSICAL',
  fundingToken,
  cardNumber: { lastFour: '1111', panHash: 'hash-of-pan', panEncrypted: 'v1:cipher' },
  shipping: standard,
  ...overrides,
});

/** A PHYSICAL card as created: ordered with its plastic, limited to 1000 cents a transaction. */
const physicalCreated = (overrides: Partial<CardCreated['data']> = {}): CardCreated =>
  cardCreated({ cardType: 'PHYSICAL', state: 'PENDING_FULFILLMENT', shipping: standard, ...overrides });
const shipped: CardEvent = { type: 'CardShipped', data: { cardToken, shippingMethod: 'STANDARD', trackingNumber: null, at } };
const activated: CardEvent = { type: 'CardActivated', data: { cardToken } };
const closed: CardEvent = { type: 'CardClosed', data: { cardToken, reason: 'REQUESTED' } };

const ship = (overrides: Partial<ShipCard> = {}): ShipCard => ({ type: 'ShipCard', cardToken, programToken, ...overrides });
const renew = (overrides: Partial<RenewCard> = {}): RenewCard => ({ type: 'RenewCard', cardToken, programToken, ...overrides });
const reissue = (overrides: Partial<ReissueCard> = {}): ReissueCard => ({ type: 'ReissueCard', cardToken, programToken, ...overrides });
const convert = (overrides: Partial<ConvertCardToPhysical> = {}): ConvertCardToPhysical => ({ type: 'ConvertCardToPhysical', cardToken, programToken, shipping: standard, ...overrides });
const update = (overrides: Partial<UpdateCard>): UpdateCard => ({ type: 'UpdateCard', cardToken, programToken, ...overrides });

const authorize = (presentedPinHash: string | null): AuthorizeSpend => ({
  type: 'AuthorizeSpend',
  facts: { cardToken, programToken, transactionToken: 'txn-now', eventToken: 'evt-now', amount: 500, merchant: coffeeShop, merchantAmount: 500, merchantCurrency: 'USD', authorizationCode: '654321' },
  checks: passingChecks({ presentedPinHash }),
});

const issued = (events: CardEvent[]): IssuedCard => foldEvents(cardDecider, events) as IssuedCard;

describe('physical cards', () => {
  describe('create', () => {
    it('orders the plastic with the card, which starts PENDING_FULFILLMENT', () => {
      spec.given([]).when(createPhysical()).then([physicalCreated({ spendLimit: 0, created: at })]);
    });

    it('records the card a replacement replaces', () => {
      const replaced = 'a1b2c3d4-0000-4000-8000-000000000001';
      spec.given([]).when(createPhysical({ replacementFor: replaced })).then([physicalCreated({ spendLimit: 0, created: at, replacementFor: replaced })]);
    });

    it('refuses a PHYSICAL card without a shipping address', () => {
      spec.given([]).when(createPhysical({ shipping: undefined })).thenThrows(ShippingRequired);
    });

    it('refuses a state for a PHYSICAL card: it starts PENDING_FULFILLMENT', () => {
      spec.given([]).when(createPhysical({ state: 'OPEN' })).thenThrows(CardStateNotAllowed);
    });

    it('refuses a shipping address on a virtual card', () => {
      spec.given([]).when(createPhysical({ cardType: 'VIRTUAL' })).thenThrows(ShippingNotApplicable);
    });

    it.each([
      ['a country that is not alpha-3', { country: 'US' }, /country/],
      ['a US postal code that is not a ZIP', { postalCode: '1000' }, /postal_code/],
      ['a US state that is not two letters', { state: 'New York' }, /state/],
      ['printed names longer than 25 characters together', { firstName: 'Bartholomew', lastName: 'Featherstonehaugh' }, /first_name and shipping_address.last_name/],
    ])('refuses an address with %s', (_what, change, message) => {
      spec.given([]).when(createPhysical({ shipping: { ...standard, address: { ...janet, ...change } } })).thenThrows(InvalidInput, message);
    });

    it('accepts a ZIP+4 and a foreign state of its own spelling', () => {
      const abroad = { ...janet, country: 'GBR', state: 'Greater London', postalCode: 'SW1A 1AA' };
      spec.given([]).when(createPhysical({ shipping: { ...standard, address: abroad } })).then([physicalCreated({ spendLimit: 0, created: at, shipping: { ...standard, address: abroad } })]);
    });

    it('refuses EXPEDITED shipping without an email and a phone number', () => {
      spec.given([]).when(createPhysical({ shipping: { ...standard, method: 'EXPEDITED' } })).thenThrows(InvalidInput, /email/);
    });
  });

  describe('shipment and activation', () => {
    it('ships the ordered plastic: the card awaits activation', () => {
      spec.given([physicalCreated()]).when(ship()).then([shipped]);
      expect(issued([physicalCreated(), shipped]).state).toBe('PENDING_ACTIVATION');
    });

    it('keeps the tracking number given', () => {
      spec.given([physicalCreated()]).when(ship({ trackingNumber: '1Z999' })).then([{ type: 'CardShipped', data: { cardToken, shippingMethod: 'STANDARD', trackingNumber: '1Z999', at } }]);
    });

    it('ships nothing twice, nor a card without a plastic', () => {
      spec.given([physicalCreated(), shipped]).when(ship()).thenThrows(NoPlasticToShip);
      spec.given([cardCreated()]).when(ship()).thenThrows(NoPlasticToShip);
    });

    it('activates a shipped card with an update to OPEN', () => {
      spec.given([physicalCreated(), shipped]).when(update({ state: 'OPEN' })).then([activated]);
      expect(issued([physicalCreated(), shipped, activated]).state).toBe('OPEN');
    });

    it('refuses to activate a card whose plastic has not shipped', () => {
      spec.given([physicalCreated()]).when(update({ state: 'OPEN' })).thenThrows(CardNotShipped);
    });

    it('refuses to pause a card not yet activated, and closes it', () => {
      spec.given([physicalCreated(), shipped]).when(update({ state: 'PAUSED' })).thenThrows(CardNotActivated);
      spec.given([physicalCreated()]).when(update({ state: 'CLOSED' })).then([closed]);
    });

    it.each([
      ['PENDING_FULFILLMENT', [physicalCreated()]],
      ['PENDING_ACTIVATION', [physicalCreated(), shipped]],
    ])('a %s card approves a card-not-present authorization and declines one with a PIN (card present)', (_state, history) => {
      spec.given(history).when(authorize(null)).then([{ type: 'CardAuthorizationApproved', data: { ...authorize(null).facts, fundingToken, at } }]);
      spec.given(history).when(authorize('hash-of-1234')).then([{ type: 'CardAuthorizationDeclined', data: { ...authorize(null).facts, fundingToken, at, reason: 'CARD_PAUSED' } }]);
    });

    it('refuses a shipment of another program\'s card as a missing one', () => {
      spec.given([physicalCreated()]).when(ship({ programToken: otherProgramToken })).thenThrows(CardNotFound);
    });
  });

  describe('renew', () => {
    const active = [physicalCreated(), shipped, activated];

    it('gives a PHYSICAL card a new expiry and orders its new plastic; it stays OPEN with its limits', () => {
      const renewed: CardEvent = {
        type: 'CardRenewed',
        data: { cardToken, expMonth: '11', expYear: '2029', previousExpMonth: '11', previousExpYear: '2029', shipping: express, at },
      };
      spec.given(active).when(renew({ shipping: express })).then([renewed]);
      const after = issued([...active, renewed]);
      expect([after.state, after.spendLimit, after.productId, after.plastic?.status]).toEqual(['OPEN', 1000, '100', 'ORDERED']);
    });

    it('takes the expiry given', () => {
      spec
        .given(active)
        .when(renew({ shipping: standard, expiry: { month: '06', year: '2031' } }))
        .then([{ type: 'CardRenewed', data: { cardToken, expMonth: '06', expYear: '2031', previousExpMonth: '11', previousExpYear: '2029', shipping: standard, at } }]);
    });

    it('renews a VIRTUAL card without a plastic, ignoring an address', () => {
      spec
        .given([cardCreated({ cardType: 'VIRTUAL', expYear: '2027' })])
        .when(renew({ shipping: standard }))
        .then([{ type: 'CardRenewed', data: { cardToken, expMonth: '11', expYear: '2029', previousExpMonth: '11', previousExpYear: '2027', shipping: null, at } }]);
    });

    it('refuses a PHYSICAL renewal without an address, a SINGLE_USE card and a CLOSED card', () => {
      spec.given(active).when(renew()).thenThrows(ShippingRequired);
      spec.given([cardCreated({ cardType: 'SINGLE_USE' })]).when(renew()).thenThrows(CardTypeNotAllowed);
      spec.given([...active, closed]).when(renew({ shipping: standard })).thenThrows(CardIsClosed);
    });
  });

  describe('reissue', () => {
    const reissued = (shipping: Shipping): CardEvent => ({ type: 'CardReissued', data: { cardToken, shipping, at } });

    it('orders a duplicate plastic to the last address when none is given, keeping PAN, expiry and state', () => {
      const history = [physicalCreated(), shipped, activated];
      spec.given(history).when(reissue()).then([reissued(standard)]);
      const after = issued([...history, reissued(standard)]);
      expect([after.state, after.expYear, after.panHash, after.plastic?.status]).toEqual(['OPEN', '2029', 'hash-of-pan', 'ORDERED']);
    });

    it('sends it where asked', () => {
      spec.given([physicalCreated(), shipped]).when(reissue({ shipping: express })).then([reissued(express)]);
    });

    it(`refuses more than ${MAX_PLASTIC_REORDERS} plastics reordered, and a virtual card`, () => {
      const reorders = Array.from({ length: MAX_PLASTIC_REORDERS }, () => reissued(standard));
      spec.given([physicalCreated(), ...reorders]).when(reissue()).thenThrows(TooManyPlastics);
      spec.given([cardCreated({ cardType: 'VIRTUAL' })]).when(reissue({ shipping: standard })).thenThrows(CardTypeNotAllowed);
    });
  });

  describe('convert to physical', () => {
    const converted: CardEvent = { type: 'CardConvertedToPhysical', data: { cardToken, previousType: 'VIRTUAL', shipping: standard, at } };

    it('turns an OPEN VIRTUAL card PHYSICAL, same PAN and limits, PENDING_FULFILLMENT with its plastic ordered', () => {
      spec.given([cardCreated({ cardType: 'VIRTUAL' })]).when(convert()).then([converted]);
      const after = issued([cardCreated({ cardType: 'VIRTUAL' }), converted]);
      expect([after.cardType, after.state, after.panHash, after.spendLimit, after.plastic?.status]).toEqual(['PHYSICAL', 'PENDING_FULFILLMENT', 'hash-of-pan', 1000, 'ORDERED']);
    });

    it('refuses a card that is not OPEN, and a type Lithic does not convert', () => {
      spec.given([cardCreated({ cardType: 'VIRTUAL', state: 'PAUSED' })]).when(convert()).thenThrows(CardMustBeOpen);
      spec.given([cardCreated({ cardType: 'MERCHANT_LOCKED' })]).when(convert()).thenThrows(CardTypeNotAllowed);
      spec.given([physicalCreated()]).when(convert()).thenThrows(CardTypeNotAllowed);
    });
  });
});

describe('replacement terms', () => {
  const replacedToken = cardToken;
  const lost = issued([physicalCreated({ spendLimit: 3000, spendLimitDuration: 'ANNUALLY' })]);

  it('hands on the replaced card\'s limits and funding', () => {
    expect(replacementTerms(lost, replacedToken, programToken, 'PHYSICAL')).toEqual({ spendLimit: 3000, spendLimitDuration: 'ANNUALLY', fundingToken });
  });

  it('refuses a replacement of another type, of another program\'s card, and of no card', () => {
    expect(() => replacementTerms(lost, replacedToken, programToken, 'VIRTUAL')).toThrow(ReplacementTypeMismatch);
    expect(() => replacementTerms(lost, replacedToken, otherProgramToken, 'PHYSICAL')).toThrow(ReplacedCardNotFound);
    expect(() => replacementTerms({ status: 'absent' }, replacedToken, programToken, 'PHYSICAL')).toThrow(ReplacedCardNotFound);
  });
});
