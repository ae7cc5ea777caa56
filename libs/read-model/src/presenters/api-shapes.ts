import { fundingTimestamp, FundingSourceResponse, isoSeconds, TransactionEventResponse, TransactionResponse } from '@ledger/contracts';
import type { CardResponse } from '@ledger/contracts';
import type { TransactionEventEntry } from '@ledger/domain';
import type { Card, FundingSource, Transaction } from '../generated/prisma/client';

/**
 * Read-model rows in the spec's API shapes (2.1-2.5), shared by the REST answers and the webhook
 * bodies so both show a card or transaction field for field. Nothing here can produce a clear PAN
 * or CVV: the gateway adds those, for the owning program, in its own presenter.
 */
export type CardWithoutSecrets = Omit<CardResponse, 'pan' | 'cvv'>;

export function presentFunding(source: FundingSource): FundingSourceResponse {
  return {
    account_name: source.accountName,
    created: fundingTimestamp(source.created),
    last_four: source.lastFour,
    nickname: source.nickname,
    state: source.state,
    token: source.token,
    type: source.type,
  };
}

export function presentCardWithoutSecrets(card: Card, funding: FundingSource): CardWithoutSecrets {
  return {
    created: isoSeconds(card.created),
    funding: presentFunding(funding),
    exp_month: card.expMonth,
    exp_year: card.expYear,
    hostname: card.hostname,
    last_four: card.lastFour,
    memo: card.memo,
    spend_limit: Number(card.spendLimit),
    spend_limit_duration: card.spendLimitDuration,
    state: card.state,
    token: card.token,
    type: card.type,
  };
}

/** `fundingType` is that of the transaction's own funding source, which the card may have left since. */
export function presentTransaction<C extends CardWithoutSecrets>(
  row: Transaction,
  card: C,
  fundingType: string,
): Omit<TransactionResponse, 'card'> & { card: C & { auth_rule_tokens: string[] } } {
  const amount = Number(row.amount);
  return {
    acquirer_fee: Number(row.acquirerFee),
    amount,
    authorization_amount: Number(row.authorizationAmount),
    authorization_code: row.authorizationCode,
    card: { ...card, auth_rule_tokens: [] },
    created: isoSeconds(row.created),
    events: (row.events as unknown as TransactionEventEntry[]).map(
      (entry): TransactionEventResponse => ({
        amount: entry.amount,
        created: isoSeconds(new Date(entry.created)),
        result: entry.result,
        token: entry.token,
        type: entry.type,
      }),
    ),
    funding: [{ amount, token: row.fundingToken, type: fundingType }],
    merchant: {
      acceptor_id: row.merchantAcceptorId,
      city: row.merchantCity,
      country: row.merchantCountry,
      descriptor: row.merchantDescriptor,
      mcc: row.merchantMcc,
      state: row.merchantState,
    },
    merchant_amount: Number(row.merchantAmount),
    merchant_authorization_amount: Number(row.merchantAuthorizationAmount),
    merchant_currency: row.merchantCurrency,
    result: row.result,
    settled_amount: Number(row.settledAmount),
    status: row.status,
    token: row.token,
  };
}
