import { EVENT_SCHEMA_VERSIONS } from '../events/event-catalog';
import { subjectTokenOf, webhookEventTypeOf, webhookMessageId } from './webhook-events';

describe('which ledger events become webhooks', () => {
  const card = 'card-7ef7d65c-9023-4da3-b113-3b8583fd7951';
  const transaction = 'transaction-2b8f3c1d-6e4a-4b9c-8d7e-1f2a3b4c5d6e';

  it('maps every event type of the catalog, and nothing else', () => {
    const mapped = Object.keys(EVENT_SCHEMA_VERSIONS).map((type) => {
      const stream = type.startsWith('Card') ? card : type.startsWith('Transaction') ? transaction : 'program-x';
      return [type, webhookEventTypeOf({ type, stream_id: stream })];
    });
    expect(Object.fromEntries(mapped.filter(([, webhook]) => webhook !== null))).toEqual({
      CardCreated: 'card.created',
      CardDetailsChanged: 'card.updated',
      CardPaused: 'card.updated',
      CardResumed: 'card.updated',
      CardClosed: 'card.updated',
      CardMerchantLocked: 'card.updated',
      CardShipped: 'card.shipped',
      CardActivated: 'card.updated',
      CardRenewed: 'card.renewed',
      CardReissued: 'card.reissued',
      CardConvertedToPhysical: 'card.converted',
      TransactionAuthorized: 'card_transaction.updated',
      TransactionAdvised: 'card_transaction.updated',
      TransactionVoided: 'card_transaction.updated',
      TransactionExpired: 'card_transaction.updated',
      TransactionCleared: 'card_transaction.updated',
      TransactionDisputeWon: 'card_transaction.updated',
      TransactionReturned: 'card_transaction.updated',
      TransactionReturnReversed: 'card_transaction.updated',
      TransactionSettled: 'card_transaction.updated',
      TransactionBounced: 'card_transaction.updated',
    });
  });

  it('looks at the stream too: the card-number registry and subscriptions are no card', () => {
    expect(webhookEventTypeOf({ type: 'CardNumberAssigned', stream_id: 'cardnumber-abc' })).toBeNull();
    expect(webhookEventTypeOf({ type: 'CardCreated', stream_id: 'cardnumber-abc' })).toBeNull();
    expect(webhookEventTypeOf({ type: 'EventSubscriptionCreated', stream_id: 'event-subscription-x' })).toBeNull();
  });

  it("sends a token's decision as tokenization.result, its status and data changes as tokenization.updated, and every change of a dispute but its evidence as dispute.updated", () => {
    const token = 'tokenization-3c9d7e1f-2a4b-4c5d-8e6f-7a8b9c0d1e2f';
    const dispute = 'dispute-4d0e8f2a-3b5c-4d6e-9f7a-8b9c0d1e2f3a';
    const typesOf = (stream: string, types: string[]) => Object.fromEntries(types.map((type) => [type, webhookEventTypeOf({ type, stream_id: stream })]));
    expect(typesOf(token, ['TokenizationDecided', 'TokenizationStatusChanged', 'TokenizationDigitalCardArtUpdated', 'TokenizationActivationCodeResent'])).toEqual({
      TokenizationDecided: 'tokenization.result',
      TokenizationStatusChanged: 'tokenization.updated',
      TokenizationDigitalCardArtUpdated: 'tokenization.updated',
      TokenizationActivationCodeResent: null,
    });
    expect(typesOf(dispute, ['DisputeFiled', 'DisputeAmended', 'DisputeStatusChanged', 'DisputeEvidenceRequested', 'DisputeEvidenceUploaded', 'DisputeEvidenceDeleted'])).toEqual({
      DisputeFiled: 'dispute.updated',
      DisputeAmended: 'dispute.updated',
      DisputeStatusChanged: 'dispute.updated',
      DisputeEvidenceRequested: null,
      DisputeEvidenceUploaded: null,
      DisputeEvidenceDeleted: null,
    });
    // The program's list of disputes is a stream of the program, not a dispute.
    expect(webhookEventTypeOf({ type: 'DisputeListed', stream_id: 'program-disputes-x' })).toBeNull();
    expect(subjectTokenOf({ stream_id: dispute })).toBe('4d0e8f2a-3b5c-4d6e-9f7a-8b9c0d1e2f3a');
  });

  it('names the card or transaction from the stream id', () => {
    expect(subjectTokenOf({ stream_id: card })).toBe('7ef7d65c-9023-4da3-b113-3b8583fd7951');
    expect(subjectTokenOf({ stream_id: transaction })).toBe('2b8f3c1d-6e4a-4b9c-8d7e-1f2a3b4c5d6e');
  });
});

describe('webhook message ids', () => {
  const event = 'e0f1a2b3-c4d5-4e6f-8a7b-9c0d1e2f3a4b';
  const subscription = '5c2d7e1f-3a4b-4c5d-9e6f-7a8b9c0d1e2f';

  it('are version-5 UUIDs, the same every time for one event and subscription', () => {
    const id = webhookMessageId(event, subscription);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(webhookMessageId(event, subscription)).toBe(id);
  });

  it('differ across subscriptions and across events', () => {
    const ids = new Set([webhookMessageId(event, subscription), webhookMessageId(event, `${subscription.slice(0, -1)}0`), webhookMessageId(`${event.slice(0, -1)}0`, subscription)]);
    expect(ids.size).toBe(3);
  });
});
