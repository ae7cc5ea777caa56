import { FulfillCardCommand } from '@ledger/contracts';
import {
  CardIsClosed,
  CardMustBeOpen,
  CardNotFound,
  cardStreamId,
  CardTypeNotAllowed,
  ExpiryInThePast,
  InvalidInput,
  MAX_PLASTIC_REORDERS,
  NoPlasticToShip,
  programStreamId,
  ShippingRequired,
  TooManyPlastics,
  type CardCreated,
  type CardEvent,
  type CardType,
  type FulfillmentCommand,
  type ProgramEvent,
  type Shipping,
} from '@ledger/domain';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programCreated, programWithFundingSources } from '@ledger/runtime/test';
import { FulfillCardHandler } from './fulfill-card.handler';

const PROGRAM = 'prog_acme';
const OTHER_PROGRAM = 'prog_other';
const CARD = 'card_1';
const CARD_STREAM = cardStreamId(CARD);
const PROGRAM_STREAM = programStreamId(PROGRAM);
const CREATED = '2025-03-14T09:26:53.589Z';
/** More than a year after the card was made, so a generated expiry differs from the card's 03/2028. */
const NOW = '2026-05-20T10:00:00.000Z';
const ADVANCED_TO = '2027-09-01T00:00:00.000Z';
const POSITION = expect.stringMatching(/^\d+\/\d+$/);

const program = programWithFundingSources({ programToken: PROGRAM, created: CREATED });
const clockAdvanced: ProgramEvent = {
  type: 'ProgramClockAdvanced',
  data: { programToken: PROGRAM, offsetMs: Date.parse(ADVANCED_TO) - Date.parse(NOW), frozenTime: ADVANCED_TO, advancedAt: NOW },
};

const home: Shipping = {
  address: { firstName: 'Janet', lastName: 'Yellen', address1: '5 Broad Street', city: 'NEW YORK', state: 'NY', postalCode: '10001', country: 'USA' },
  method: 'STANDARD',
  productId: null,
};
const office: Shipping = { address: { ...home.address, address1: '1 Main Street' }, method: 'EXPRESS', productId: 'prod_100' };

const virtualCard = (overrides: Partial<CardCreated['data']> = {}) => cardCreated({ cardToken: CARD, programToken: PROGRAM, cardType: 'VIRTUAL', created: CREATED, ...overrides });
/** A PHYSICAL card as created: its plastic ordered to `home`, not yet shipped. */
const physicalCard = (overrides: Partial<CardCreated['data']> = {}) => virtualCard({ cardType: 'PHYSICAL', state: 'PENDING_FULFILLMENT', shipping: home, ...overrides });
const shipped: CardEvent = { type: 'CardShipped', data: { cardToken: CARD, shippingMethod: 'STANDARD', trackingNumber: null, at: CREATED } };
const paused: CardEvent = { type: 'CardPaused', data: { cardToken: CARD } };
const closed: CardEvent = { type: 'CardClosed', data: { cardToken: CARD, reason: 'REQUESTED' } };
const reissued: CardEvent = { type: 'CardReissued', data: { cardToken: CARD, shipping: home, at: CREATED } };
/** A PHYSICAL card whose plastic was ordered again as many times as Lithic allows. */
const reorderedToTheLimit = [physicalCard(), shipped, ...Array.from({ length: MAX_PLASTIC_REORDERS }, () => reissued)];

const given = (...cardEvents: CardEvent[]) => ({ [PROGRAM_STREAM]: program, [CARD_STREAM]: cardEvents });

type Without<C> = C extends unknown ? Omit<C, 'cardToken' | 'programToken'> : never;
/** The command as the gateway sends it: naming the card and the program the caller belongs to. */
const fulfill = (command: Without<FulfillmentCommand>, { by = PROGRAM, cardToken = CARD }: { by?: string; cardToken?: string } = {}) =>
  new FulfillCardCommand(commandOrigin(by), { ...command, cardToken, programToken: by } as FulfillmentCommand);

describe('FulfillCardHandler', () => {
  const fulfillment = ledgerHandlerSpecification({ handler: (env) => new FulfillCardHandler(env), now: new Date(NOW) });

  describe('ShipCard', () => {
    it('given a PHYSICAL card whose plastic is ordered, when shipped with a tracking number, then the shipment is recorded with the ordered method', async () => {
      const { result } = await fulfillment
        .given(given(physicalCard({ shipping: office })))
        .when((handler) => handler.execute(fulfill({ type: 'ShipCard', trackingNumber: '1Z999AA10123456784' })))
        .then({ [CARD_STREAM]: [{ type: 'CardShipped', data: { cardToken: CARD, shippingMethod: 'EXPRESS', trackingNumber: '1Z999AA10123456784', at: NOW } }] });

      expect(result).toEqual({ token: CARD, position: POSITION });
    });

    it('given a PHYSICAL card whose plastic is ordered, when shipped without a tracking number, then the shipment is recorded with none', async () => {
      await fulfillment
        .given(given(physicalCard()))
        .when((handler) => handler.execute(fulfill({ type: 'ShipCard' })))
        .then({ [CARD_STREAM]: [{ type: 'CardShipped', data: { cardToken: CARD, shippingMethod: 'STANDARD', trackingNumber: null, at: NOW } }] });
    });

    it('given a reissued card, when shipped, then the new plastic is shipped with its own method', async () => {
      await fulfillment
        .given(given(physicalCard(), shipped, { type: 'CardReissued', data: { cardToken: CARD, shipping: office, at: CREATED } }))
        .when((handler) => handler.execute(fulfill({ type: 'ShipCard' })))
        .then({ [CARD_STREAM]: [{ type: 'CardShipped', data: { cardToken: CARD, shippingMethod: 'EXPRESS', trackingNumber: null, at: NOW } }] });
    });

    it('given a virtual card, or a plastic already shipped, when shipped, then it is refused: there is no plastic waiting', async () => {
      await fulfillment.given(given(virtualCard())).when((handler) => handler.execute(fulfill({ type: 'ShipCard' }))).thenThrows(NoPlasticToShip, { cardToken: CARD });
      await fulfillment.given(given(physicalCard(), shipped)).when((handler) => handler.execute(fulfill({ type: 'ShipCard' }))).thenThrows(NoPlasticToShip, { cardToken: CARD });
    });
  });

  describe('RenewCard', () => {
    const renewed = (data: { expMonth: string; expYear: string; shipping?: Shipping | null; at?: string }) => ({
      [CARD_STREAM]: [{ type: 'CardRenewed', data: { cardToken: CARD, previousExpMonth: '03', previousExpYear: '2028', shipping: null, at: NOW, ...data } }],
    });

    it.each<CardType>(['VIRTUAL', 'DIGITAL_WALLET', 'UNLOCKED'])('given a %s card, when renewed, then a new expiry three years out in this month is recorded, with no plastic', async (cardType) => {
      const { result } = await fulfillment
        .given(given(virtualCard({ cardType })))
        .when((handler) => handler.execute(fulfill({ type: 'RenewCard' })))
        .then(renewed({ expMonth: '05', expYear: '2029' }));

      expect(result).toEqual({ token: CARD, position: POSITION });
    });

    it('given a virtual card, when renewed with an expiry and a shipping address, then that expiry is recorded and the address ignored', async () => {
      await fulfillment
        .given(given(virtualCard()))
        .when((handler) => handler.execute(fulfill({ type: 'RenewCard', expiry: { month: '12', year: '2030' }, shipping: office })))
        .then(renewed({ expMonth: '12', expYear: '2030' }));
    });

    it('given a PAUSED virtual card, when renewed, then the renewal is recorded: a renewal does not need an OPEN card', async () => {
      await fulfillment
        .given(given(virtualCard(), paused))
        .when((handler) => handler.execute(fulfill({ type: 'RenewCard' })))
        .then(renewed({ expMonth: '05', expYear: '2029' }));
    });

    it('given a PHYSICAL card, when renewed with a shipping address, then the new plastic is ordered with the renewal', async () => {
      await fulfillment
        .given(given(physicalCard(), shipped))
        .when((handler) => handler.execute(fulfill({ type: 'RenewCard', shipping: office })))
        .then(renewed({ expMonth: '05', expYear: '2029', shipping: office }));
    });

    it("given the program's test clock advanced, when renewed, then the generated expiry and the renewal follow the program's time", async () => {
      await fulfillment
        .given({ [PROGRAM_STREAM]: [...program, clockAdvanced], [CARD_STREAM]: [virtualCard()] })
        .when((handler) => handler.execute(fulfill({ type: 'RenewCard' })))
        .then(renewed({ expMonth: '09', expYear: '2030', at: ADVANCED_TO }));
    });

    it("given the program's test clock advanced, when renewed with an expiry past on the program's clock but not on the wall clock, then it is refused", async () => {
      await fulfillment
        .given({ [PROGRAM_STREAM]: [...program, clockAdvanced], [CARD_STREAM]: [virtualCard()] })
        .when((handler) => handler.execute(fulfill({ type: 'RenewCard', expiry: { month: '12', year: '2026' } })))
        .thenThrows(ExpiryInThePast, { field: 'exp_year' });
    });

    it('when renewed with an expiry in the past, then it is refused', async () => {
      await fulfillment
        .given(given(virtualCard()))
        .when((handler) => handler.execute(fulfill({ type: 'RenewCard', expiry: { month: '04', year: '2026' } })))
        .thenThrows(ExpiryInThePast, { message: 'exp_month/exp_year 04/2026 is in the past', field: 'exp_year' });
    });

    it.each<CardType>(['SINGLE_USE', 'MERCHANT_LOCKED'])('given a %s card, when renewed, then it is refused: renewal is for PHYSICAL and virtual cards', async (cardType) => {
      await fulfillment
        .given(given(virtualCard({ cardType })))
        .when((handler) => handler.execute(fulfill({ type: 'RenewCard' })))
        .thenThrows(CardTypeNotAllowed, { field: 'type', message: `renew applies to cards of type PHYSICAL, VIRTUAL, DIGITAL_WALLET, UNLOCKED; this card is ${cardType}` });
    });

    it('given a PHYSICAL card, when renewed without a shipping address, then it is refused', async () => {
      await fulfillment.given(given(physicalCard(), shipped)).when((handler) => handler.execute(fulfill({ type: 'RenewCard' }))).thenThrows(ShippingRequired, { field: 'shipping_address' });
    });

    it('given a PHYSICAL card, when renewed to an address the rules refuse, then it is refused', async () => {
      await fulfillment
        .given(given(physicalCard(), shipped))
        .when((handler) => handler.execute(fulfill({ type: 'RenewCard', shipping: { ...home, address: { ...home.address, postalCode: 'ABCDE' } } })))
        .thenThrows(InvalidInput, { field: 'shipping_address.postal_code' });
    });

    it('given a PHYSICAL card reordered as often as allowed, when renewed, then it is refused', async () => {
      await fulfillment.given(given(...reorderedToTheLimit)).when((handler) => handler.execute(fulfill({ type: 'RenewCard', shipping: home }))).thenThrows(TooManyPlastics, { cardToken: CARD });
    });
  });

  describe('ReissueCard', () => {
    it('given a PHYSICAL card, when reissued without a shipping address, then the plastic goes where the last one went, with its method and product', async () => {
      const { result } = await fulfillment
        .given(given(physicalCard({ shipping: office }), shipped))
        .when((handler) => handler.execute(fulfill({ type: 'ReissueCard' })))
        .then({ [CARD_STREAM]: [{ type: 'CardReissued', data: { cardToken: CARD, shipping: office, at: NOW } }] });

      expect(result).toEqual({ token: CARD, position: POSITION });
    });

    it('given a PHYSICAL card, when reissued to a new address, then the plastic goes there', async () => {
      await fulfillment
        .given(given(physicalCard(), shipped))
        .when((handler) => handler.execute(fulfill({ type: 'ReissueCard', shipping: office })))
        .then({ [CARD_STREAM]: [{ type: 'CardReissued', data: { cardToken: CARD, shipping: office, at: NOW } }] });
    });

    it('given a PHYSICAL card reissued once less than allowed, when reissued, then the last reorder is recorded', async () => {
      await fulfillment
        .given(given(...reorderedToTheLimit.slice(0, -1)))
        .when((handler) => handler.execute(fulfill({ type: 'ReissueCard' })))
        .then({ [CARD_STREAM]: [{ type: 'CardReissued', data: { cardToken: CARD, shipping: home, at: NOW } }] });
    });

    it('given a PHYSICAL card reordered as often as allowed, when reissued, then it is refused', async () => {
      await fulfillment.given(given(...reorderedToTheLimit)).when((handler) => handler.execute(fulfill({ type: 'ReissueCard' }))).thenThrows(TooManyPlastics, { cardToken: CARD });
    });

    it.each<CardType>(['VIRTUAL', 'DIGITAL_WALLET', 'SINGLE_USE'])('given a %s card, when reissued, then it is refused: only a PHYSICAL card is reissued', async (cardType) => {
      await fulfillment
        .given(given(virtualCard({ cardType })))
        .when((handler) => handler.execute(fulfill({ type: 'ReissueCard', shipping: home })))
        .thenThrows(CardTypeNotAllowed, { message: `reissue applies to cards of type PHYSICAL; this card is ${cardType}` });
    });

    it('given a PHYSICAL card, when reissued to an address outside the rules, then it is refused', async () => {
      await fulfillment
        .given(given(physicalCard(), shipped))
        .when((handler) => handler.execute(fulfill({ type: 'ReissueCard', shipping: { ...home, address: { ...home.address, country: 'US' } } })))
        .thenThrows(InvalidInput, { field: 'shipping_address.country' });
    });
  });

  describe('ConvertCardToPhysical', () => {
    it.each<CardType>(['VIRTUAL', 'DIGITAL_WALLET', 'UNLOCKED'])('given an OPEN %s card, when converted, then it becomes PHYSICAL with its plastic ordered', async (cardType) => {
      const { result } = await fulfillment
        .given(given(virtualCard({ cardType })))
        .when((handler) => handler.execute(fulfill({ type: 'ConvertCardToPhysical', shipping: office })))
        .then({ [CARD_STREAM]: [{ type: 'CardConvertedToPhysical', data: { cardToken: CARD, previousType: cardType, shipping: office, at: NOW } }] });

      expect(result).toEqual({ token: CARD, position: POSITION });
    });

    it('given a PAUSED virtual card, when converted, then it is refused: a conversion needs an OPEN card', async () => {
      await fulfillment
        .given(given(virtualCard(), paused))
        .when((handler) => handler.execute(fulfill({ type: 'ConvertCardToPhysical', shipping: home })))
        .thenThrows(CardMustBeOpen, { cardToken: CARD, field: 'state' });
    });

    it.each<CardType>(['PHYSICAL', 'SINGLE_USE', 'MERCHANT_LOCKED'])('given a %s card, when converted, then it is refused: only a virtual card is converted', async (cardType) => {
      await fulfillment
        .given(given(virtualCard({ cardType })))
        .when((handler) => handler.execute(fulfill({ type: 'ConvertCardToPhysical', shipping: home })))
        .thenThrows(CardTypeNotAllowed, { message: `convert_physical applies to cards of type VIRTUAL, DIGITAL_WALLET, UNLOCKED; this card is ${cardType}` });
    });

    it('given a virtual card, when converted for EXPEDITED shipping without an email, then it is refused', async () => {
      await fulfillment
        .given(given(virtualCard()))
        .when((handler) => handler.execute(fulfill({ type: 'ConvertCardToPhysical', shipping: { ...home, method: 'EXPEDITED' } })))
        .thenThrows(InvalidInput, { field: 'shipping_address.email' });
    });
  });

  describe('every fulfillment', () => {
    const commands: Without<FulfillmentCommand>[] = [{ type: 'ShipCard' }, { type: 'RenewCard', shipping: home }, { type: 'ReissueCard' }, { type: 'ConvertCardToPhysical', shipping: home }];

    it.each(commands)('given a CLOSED card, when $type, then it is refused', async (command) => {
      await fulfillment.given(given(physicalCard(), closed)).when((handler) => handler.execute(fulfill(command))).thenThrows(CardIsClosed, { cardToken: CARD });
    });

    it.each(commands)('given no such card, when $type, then it is refused as not found', async (command) => {
      await fulfillment.given(given(physicalCard())).when((handler) => handler.execute(fulfill(command, { cardToken: 'card_missing' }))).thenThrows(CardNotFound, { cardToken: 'card_missing' });
    });

    it.each(commands)("given another program's card, when that program asks for $type, then it is refused as a card that does not exist", async (command) => {
      await fulfillment
        .given({ ...given(physicalCard()), [programStreamId(OTHER_PROGRAM)]: [programCreated({ programToken: OTHER_PROGRAM, name: 'Other', created: CREATED })] })
        .when((handler) => handler.execute(fulfill(command, { by: OTHER_PROGRAM })))
        .thenThrows(CardNotFound, { cardToken: CARD, message: `Card ${CARD} not found` });
    });

    it("given another program's card, when that program's command names the card's program, then it is refused: the program is the caller's, not the command's", async () => {
      await fulfillment
        .given(given(physicalCard()))
        .when((handler) => handler.execute(new FulfillCardCommand(commandOrigin(OTHER_PROGRAM), { type: 'ShipCard', cardToken: CARD, programToken: PROGRAM })))
        .thenThrows(CardNotFound, { cardToken: CARD });
    });
  });
});
