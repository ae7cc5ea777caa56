import type { DecisionContext } from '../core/decider';
import { assertNever } from '../core/decider';
import { ownedCard, type Card, type CardEvent, type IssuedCard } from './card-state';
import { CardIsClosed, CardMustBeOpen, CardTypeNotAllowed, ExpiryInThePast, NoPlasticToShip, ShippingRequired, TooManyPlastics } from './card-errors';
import { generatedExpiry, isExpiredAt, type CardType, type Expiry } from './card-values';
import { checkedShipping, type Shipping } from './shipping';

/**
 * A card's plastic: shipping it (simulated in the sandbox), and Lithic's renew, reissue and
 * conversion of a virtual card to PHYSICAL. None of them touches limits or spend: a renewed,
 * reissued or converted card spends under the limits it had.
 */

/** Lithic: a card can be reissued or renewed a total of 8 times. */
export const MAX_PLASTIC_REORDERS = 8;
/** The types Lithic converts to PHYSICAL and renews without a plastic: VIRTUAL and its deprecated aliases. */
export const VIRTUAL_CARD_TYPES: readonly CardType[] = ['VIRTUAL', 'DIGITAL_WALLET', 'UNLOCKED'];

export interface ShipCard {
  readonly type: 'ShipCard';
  readonly cardToken: string;
  readonly programToken: string;
  readonly trackingNumber?: string;
}

export interface RenewCard {
  readonly type: 'RenewCard';
  readonly cardToken: string;
  readonly programToken: string;
  readonly expiry?: Expiry;
  /** The new plastic of a PHYSICAL card; ignored for a virtual card, as Lithic ignores it. */
  readonly shipping?: Shipping;
}

export interface ReissueCard {
  readonly type: 'ReissueCard';
  readonly cardToken: string;
  readonly programToken: string;
  /** Omitted: the plastic goes where the last one went, with the same method and product. */
  readonly shipping?: Shipping;
}

export interface ConvertCardToPhysical {
  readonly type: 'ConvertCardToPhysical';
  readonly cardToken: string;
  readonly programToken: string;
  readonly shipping: Shipping;
}

export type FulfillmentCommand = ShipCard | RenewCard | ReissueCard | ConvertCardToPhysical;

export function decideFulfillment(command: FulfillmentCommand, card: Card, { now }: DecisionContext): CardEvent[] {
  const issued = ownedCard(card, command.cardToken, command.programToken);
  if (issued.state === 'CLOSED') throw new CardIsClosed(command.cardToken);
  const at = now.toISOString();
  switch (command.type) {
    case 'ShipCard':
      return ship(command, issued, at);
    case 'RenewCard':
      return renew(command, issued, now);
    case 'ReissueCard':
      return reissue(command, issued, at);
    case 'ConvertCardToPhysical':
      return convert(command, issued, at);
    default:
      return assertNever(command);
  }
}

function ship(command: ShipCard, card: IssuedCard, at: string): CardEvent[] {
  if (card.plastic?.status !== 'ORDERED') throw new NoPlasticToShip(card.cardToken);
  return [{ type: 'CardShipped', data: { cardToken: card.cardToken, shippingMethod: card.plastic.method, trackingNumber: command.trackingNumber ?? null, at } }];
}

function renew(command: RenewCard, card: IssuedCard, now: Date): CardEvent[] {
  const physical = card.cardType === 'PHYSICAL';
  if (!physical && !VIRTUAL_CARD_TYPES.includes(card.cardType)) throw new CardTypeNotAllowed('renew', card.cardType, ['PHYSICAL', ...VIRTUAL_CARD_TYPES]);
  if (physical) checkedReorder(card, command.shipping);
  const expiry = command.expiry ?? generatedExpiry(now);
  if (isExpiredAt(expiry, now)) throw new ExpiryInThePast(expiry.month, expiry.year);
  return [
    {
      type: 'CardRenewed',
      data: {
        cardToken: card.cardToken,
        expMonth: expiry.month,
        expYear: expiry.year,
        previousExpMonth: card.expMonth,
        previousExpYear: card.expYear,
        shipping: physical ? (command.shipping ?? null) : null,
        at: now.toISOString(),
      },
    },
  ];
}

function reissue(command: ReissueCard, card: IssuedCard, at: string): CardEvent[] {
  if (card.cardType !== 'PHYSICAL') throw new CardTypeNotAllowed('reissue', card.cardType, ['PHYSICAL']);
  const shipping = command.shipping ?? lastShipping(card);
  checkedReorder(card, shipping);
  return [{ type: 'CardReissued', data: { cardToken: card.cardToken, shipping, at } }];
}

function convert(command: ConvertCardToPhysical, card: IssuedCard, at: string): CardEvent[] {
  if (!VIRTUAL_CARD_TYPES.includes(card.cardType)) throw new CardTypeNotAllowed('convert_physical', card.cardType, VIRTUAL_CARD_TYPES);
  if (card.state !== 'OPEN') throw new CardMustBeOpen(card.cardToken, 'convert_physical');
  checkedShipping(command.shipping.address, command.shipping.method);
  return [{ type: 'CardConvertedToPhysical', data: { cardToken: card.cardToken, previousType: card.cardType, shipping: command.shipping, at } }];
}

/** A renewal or reissue of a PHYSICAL card orders another plastic: it needs an address, and at most 8 are made. */
function checkedReorder(card: IssuedCard, shipping: Shipping | undefined): asserts shipping is Shipping {
  if (!shipping) throw new ShippingRequired(`a renewal of a PHYSICAL card`);
  checkedShipping(shipping.address, shipping.method);
  if (card.plasticReorders >= MAX_PLASTIC_REORDERS) throw new TooManyPlastics(card.cardToken, MAX_PLASTIC_REORDERS);
}

/** A PHYSICAL card always has a plastic (its creation or conversion ordered one). */
function lastShipping(card: IssuedCard): Shipping {
  if (!card.plastic) throw new ShippingRequired('a reissue');
  const { status: _status, ...shipping } = card.plastic;
  return shipping;
}
