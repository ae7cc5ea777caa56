import { CardResponse, TransactionResponse } from '@ledger/contracts';
import type { WebhookEventType } from '@ledger/domain';
import { presentCardWithoutSecrets, presentTransaction, ReadModelTransaction } from '@ledger/read-model';

/** The card object as GET /v1/cards/{token} shows it, less the PAN and the CVV: no webhook carries those. */
export type WebhookCard = Omit<CardResponse, 'pan' | 'cvv'>;

/** The transaction object as GET /v1/transactions/{token} shows it, its card less the PAN and the CVV. */
export type WebhookTransaction = Omit<TransactionResponse, 'card'> & { card: WebhookCard };

/**
 * Builds webhook payloads from the read models at enqueue time. The card presenter of the gateway
 * decrypts the PAN and derives the CVV; this one never touches either, so no clear card number can
 * reach a webhook body by mistake. The shapes are the API's own (libs/read-model presenters; the
 * webhook tests compare a delivered payload with the API's answer).
 */
export class WebhookPayloads {
  constructor(private readonly readModel: Pick<ReadModelTransaction, 'card' | 'fundingSource' | 'transaction'>) {}

  /** The payload of a webhook about this card or transaction, or null when the read model lacks it. */
  async payload(eventType: WebhookEventType, subjectToken: string): Promise<WebhookCard | WebhookTransaction | null> {
    return eventType === 'card_transaction.updated' ? this.transaction(subjectToken) : this.card(subjectToken);
  }

  async card(cardToken: string): Promise<WebhookCard | null> {
    const card = await this.readModel.card.findUnique({ where: { token: cardToken } });
    if (!card) return null;
    const funding = await this.readModel.fundingSource.findUnique({ where: { token: card.fundingToken } });
    return funding ? presentCardWithoutSecrets(card, funding) : null;
  }

  async transaction(transactionToken: string): Promise<WebhookTransaction | null> {
    const row = await this.readModel.transaction.findUnique({ where: { token: transactionToken } });
    if (!row) return null;
    const [card, funding] = await Promise.all([
      this.card(row.cardToken),
      this.readModel.fundingSource.findUnique({ where: { token: row.fundingToken }, select: { type: true } }),
    ]);
    return card ? presentTransaction(row, card, funding?.type ?? card.funding.type) : null;
  }
}
