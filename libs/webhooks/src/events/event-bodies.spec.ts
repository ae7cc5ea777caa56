import { encodeEvent } from '@ledger/contracts';
import { cardDecider, cardStreamId, type CardEvent, type IssuedCard, type Shipping } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import { cardRow, fundingSourceRow } from '@ledger/read-model';
import { WebhookPayloads } from '../delivery/webhook-payloads';
import { EventBodies } from './event-bodies';

/**
 * The bodies the Kafka feed builds for a plastic's webhooks: the card as the read model shows it,
 * and what the event itself says (a renewal's expiries are the event's, even once the card has been
 * renewed again).
 */
const programToken = '1d2c3b4a-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const cardToken = '7ef7d65c-9023-4da3-b113-3b8583fd7951';
const fundingToken = 'ecbd1d58-0299-48b3-84da-6ed7f5bf9ec1';
const at = '2026-11-23T09:00:00.000Z';
const shipping: Shipping = {
  address: { firstName: 'Janet', lastName: 'Yellen', address1: '5 Broad Street', city: 'NEW YORK', state: 'NY', postalCode: '10001', country: 'USA' },
  method: 'EXPRESS',
  productId: '100',
};

const history: CardEvent[] = [
  {
    type: 'CardCreated',
    data: {
      cardToken,
      programToken,
      cardType: 'PHYSICAL',
      state: 'PENDING_FULFILLMENT',
      memo: '',
      spendLimit: 0,
      spendLimitDuration: 'TRANSACTION',
      fundingToken,
      expMonth: '02',
      expYear: '2031',
      lastFour: '1111',
      panHash: 'hash',
      panEncrypted: 'v1:cipher',
      pinHash: null,
      created: at,
      shipping,
    },
  },
  { type: 'CardShipped', data: { cardToken, shippingMethod: 'EXPRESS', trackingNumber: '1Z999', at } },
  { type: 'CardRenewed', data: { cardToken, expMonth: '03', expYear: '2033', previousExpMonth: '02', previousExpYear: '2031', shipping, at } },
  { type: 'CardRenewed', data: { cardToken, expMonth: '04', expYear: '2035', previousExpMonth: '03', previousExpYear: '2033', shipping, at } },
  { type: 'CardReissued', data: { cardToken, shipping, at } },
];

const recorded: RecordedEvent[] = history.map((event, version) => ({
  ...encodeEvent(event, { eventId: `event-${version}`, occurredAt: at } as never),
  streamId: cardStreamId(cardToken),
  streamVersion: version,
  position: { commit: BigInt(version), prepare: BigInt(version) },
  recordedAt: at,
}));

/** The card row as the projector leaves it after every event. */
const row = cardRow(history.reduce(cardDecider.evolve, cardDecider.initialState()) as IssuedCard, new Date(at));
const funding = fundingSourceRow(programToken, { fundingToken, type: 'DEPOSITORY_CHECKING', state: 'ENABLED', nickname: '', accountName: 'Bank', lastFour: '6789', created: at }, true);
const readModel = {
  card: { findUnique: async () => row, findMany: async () => [row] },
  fundingSource: { findUnique: async () => funding, findMany: async () => [funding] },
  transaction: { findUnique: async () => null, findMany: async () => [] },
};
const store = {
  readStream: async (_streamId: string, options: { fromVersion?: number; maxCount?: number } = {}) =>
    recorded.slice(options.fromVersion ?? 0, options.maxCount === undefined ? undefined : (options.fromVersion ?? 0) + options.maxCount),
};
const bodies = new EventBodies(new WebhookPayloads(readModel as never), store);
const eventAt = (streamVersion: number) => ({ streamId: cardStreamId(cardToken), streamVersion });

describe('the bodies of a plastic\'s webhooks', () => {
  it('card.shipped: the carrier\'s service in Lithic\'s words and the tracking number, beside the card', async () => {
    expect(await bodies.body('card.shipped', cardToken, eventAt(1))).toMatchObject({
      event_type: 'card.shipped',
      card_token: cardToken,
      bulk_order_token: null,
      shipping_method: 'FedEx express',
      tracking_number: '1Z999',
      type: 'PHYSICAL',
    });
  });

  it('card.renewed: the expiries of that renewal, not of the card as it is now', async () => {
    expect(await bodies.body('card.renewed', cardToken, eventAt(2))).toMatchObject({ exp_month: '03', exp_year: '2033', previous_exp_month: '02', previous_exp_year: '2031' });
    expect(await bodies.body('card.renewed', cardToken, eventAt(3))).toMatchObject({ exp_month: '04', exp_year: '2035', previous_exp_month: '03', previous_exp_year: '2033' });
  });

  it('card.reissued: the card, with its latest product', async () => {
    expect(await bodies.body('card.reissued', cardToken, eventAt(4))).toMatchObject({ event_type: 'card.reissued', card_token: cardToken, product_id: '100' });
  });
});
