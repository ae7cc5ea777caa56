import { CardResponse, TransactionResponse } from '@ledger/contracts';
import type { WebhookEventType } from '@ledger/domain';
import { presentCardWithoutSecrets, presentTransaction, ReadModelTransaction, type Card, type FundingSource, type Transaction } from '@ledger/read-model';

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
  /** Rows read ahead by prefetch (null: read, and absent). Bodies are built from the read models as they are now either way. */
  private readonly cards = new Map<string, Card | null>();
  private readonly transactions = new Map<string, Transaction | null>();
  private readonly fundingSources = new Map<string, FundingSource | null>();

  constructor(private readonly readModel: Pick<ReadModelTransaction, 'card' | 'fundingSource' | 'transaction'>) {}

  /**
   * Reads the rows of a batch's subjects in three queries, so its bodies cost no query each: the
   * events feed builds a body for every event of every program, and one query per body held it to a
   * few hundred events a second.
   */
  async prefetch(subjects: { readonly cards: readonly string[]; readonly transactions: readonly string[] }): Promise<void> {
    const transactionTokens = [...new Set(subjects.transactions)].filter((token) => !this.transactions.has(token));
    const transactions = transactionTokens.length > 0 ? await this.readModel.transaction.findMany({ where: { token: { in: transactionTokens } } }) : [];
    remember(this.transactions, transactionTokens, transactions);
    const cardTokens = [...new Set([...subjects.cards, ...transactions.map((row) => row.cardToken)])].filter((token) => !this.cards.has(token));
    const cards = cardTokens.length > 0 ? await this.readModel.card.findMany({ where: { token: { in: cardTokens } } }) : [];
    remember(this.cards, cardTokens, cards);
    const fundingTokens = [...new Set([...cards.map((row) => row.fundingToken), ...transactions.map((row) => row.fundingToken)])].filter((token) => !this.fundingSources.has(token));
    const fundingSources = fundingTokens.length > 0 ? await this.readModel.fundingSource.findMany({ where: { token: { in: fundingTokens } } }) : [];
    remember(this.fundingSources, fundingTokens, fundingSources);
  }

  /** The payload of a webhook about this card or transaction, or null when the read model lacks it. */
  async payload(eventType: WebhookEventType, subjectToken: string): Promise<WebhookCard | WebhookTransaction | null> {
    return eventType === 'card_transaction.updated' ? this.transaction(subjectToken) : this.card(subjectToken);
  }

  async card(cardToken: string): Promise<WebhookCard | null> {
    const card = this.cards.has(cardToken) ? this.cards.get(cardToken)! : await this.readModel.card.findUnique({ where: { token: cardToken } });
    if (!card) return null;
    const funding = await this.fundingSource(card.fundingToken);
    return funding ? presentCardWithoutSecrets(card, funding) : null;
  }

  async transaction(transactionToken: string): Promise<WebhookTransaction | null> {
    const row = this.transactions.has(transactionToken) ? this.transactions.get(transactionToken)! : await this.readModel.transaction.findUnique({ where: { token: transactionToken } });
    if (!row) return null;
    const [card, funding] = await Promise.all([this.card(row.cardToken), this.fundingSource(row.fundingToken)]);
    return card ? presentTransaction(row, card, funding?.type ?? card.funding.type) : null;
  }

  private async fundingSource(token: string): Promise<FundingSource | null> {
    return this.fundingSources.has(token) ? this.fundingSources.get(token)! : this.readModel.fundingSource.findUnique({ where: { token } });
  }
}

function remember<Row extends { token: string }>(into: Map<string, Row | null>, asked: readonly string[], found: readonly Row[]): void {
  for (const token of asked) into.set(token, null);
  for (const row of found) into.set(row.token, row);
}
