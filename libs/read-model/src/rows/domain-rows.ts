import type { ExistingTransaction, IssuedCard, Transaction, TransactionEventEntry, FundingSource as DomainFundingSource } from '@ledger/domain';
import type { Card, FundingSource, Transaction as TransactionRow } from '../generated/prisma/client';

/**
 * Domain state <-> read-model rows. The projector writes rows with these, and time travel presents
 * a state folded from the events through the same rows, so both show a transaction identically.
 */
/** A transaction's state as its read-model row. */
export function transactionRow(state: ExistingTransaction, version: number, updated: Date) {
  return {
    token: state.transactionToken,
    programToken: state.programToken,
    cardToken: state.cardToken,
    fundingToken: state.fundingToken,
    status: state.status,
    result: state.result,
    amount: BigInt(state.amount),
    authorizationAmount: BigInt(state.authorizationAmount),
    settledAmount: BigInt(state.settledAmount),
    merchantAmount: BigInt(state.merchantAmount),
    merchantAuthorizationAmount: BigInt(state.merchantAuthorizationAmount),
    merchantCurrency: state.merchantCurrency,
    rateAmount: BigInt(state.rate.amount),
    rateMerchantAmount: BigInt(state.rate.merchantAmount),
    authorizationCode: state.authorizationCode,
    merchantAcceptorId: state.merchant.acceptorId,
    merchantCity: state.merchant.city,
    merchantCountry: state.merchant.country,
    merchantDescriptor: state.merchant.descriptor,
    merchantMcc: state.merchant.mcc,
    merchantState: state.merchant.state,
    events: state.events as unknown as object[],
    version,
    created: new Date(state.created),
    updated,
  };
}

/**
 * The columns {@link transactionFromRow} reads: a Prisma row, or what {@link transactionRow} made
 * (the projector folds a batch onto rows it holds in memory).
 */
export type TransactionRowFields = Omit<TransactionRow, 'acquirerFee' | 'events'> & { readonly events: unknown };

/** A read-model row back as the transaction's state, to fold the next event onto. */
export function transactionFromRow(row: TransactionRowFields): Transaction {
  return {
    status: row.status as ExistingTransaction['status'],
    transactionToken: row.token,
    cardToken: row.cardToken,
    programToken: row.programToken,
    fundingToken: row.fundingToken,
    merchant: {
      acceptorId: row.merchantAcceptorId,
      city: row.merchantCity,
      country: row.merchantCountry,
      descriptor: row.merchantDescriptor,
      mcc: row.merchantMcc,
      state: row.merchantState,
    },
    merchantCurrency: row.merchantCurrency,
    rate: { amount: Number(row.rateAmount), merchantAmount: Number(row.rateMerchantAmount) },
    authorizationCode: row.authorizationCode,
    result: row.result as ExistingTransaction['result'],
    amount: Number(row.amount),
    authorizationAmount: Number(row.authorizationAmount),
    settledAmount: Number(row.settledAmount),
    merchantAmount: Number(row.merchantAmount),
    merchantAuthorizationAmount: Number(row.merchantAuthorizationAmount),
    created: row.created.toISOString(),
    events: row.events as unknown as TransactionEventEntry[],
  };
}

/** A card's state as its read-model row (time travel presents cards folded from their events). */
export function cardRow(card: IssuedCard, updated: Date): Card {
  return {
    token: card.cardToken,
    programToken: card.programToken,
    type: card.cardType,
    state: card.state,
    memo: card.memo,
    spendLimit: BigInt(card.spendLimit),
    spendLimitDuration: card.spendLimitDuration,
    fundingToken: card.fundingToken,
    expMonth: card.expMonth,
    expYear: card.expYear,
    lastFour: card.lastFour,
    panHash: card.panHash,
    panEncrypted: card.panEncrypted,
    hostname: card.hostname,
    pinSet: card.pinHash !== null,
    productId: card.productId,
    replacementFor: card.replacementFor,
    created: new Date(card.created),
    updated,
  };
}

export function fundingSourceRow(programToken: string, source: DomainFundingSource, isDefault: boolean): FundingSource {
  return {
    token: source.fundingToken,
    programToken,
    type: source.type,
    state: source.state,
    nickname: source.nickname,
    accountName: source.accountName,
    lastFour: source.lastFour,
    isDefault,
    created: new Date(source.created),
  };
}
