import { fundingTimestamp, FundingSourceResponse, isoSeconds, presentCardholderAuthentication, presentTokenInfo, TransactionEventResponse, TransactionResponse } from '@ledger/contracts';
import type { CardResponse, LithicCardFields, PosResponse } from '@ledger/contracts';
import { CARDHOLDER_CURRENCY, detailedResultOf, effectivePolarity, enforcedRuleTokens, isFinancialEvent, localAmountAtRate, refusingRuleResults, type TransactionEventEntry } from '@ledger/domain';
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
    ...lithicCardFields(card),
  };
}

/** Lithic's card fields: what we know (account, PIN), and the sandbox constants for what we do not issue. */
function lithicCardFields(card: Card): LithicCardFields {
  return {
    account_token: card.programToken,
    card_program_token: card.programToken,
    pin_status: card.pinSet ? 'OK' : 'NOT_SET',
    auth_rule_tokens: [],
    cardholder_currency: CARDHOLDER_CURRENCY,
    pending_commands: [],
    bulk_order_token: null,
    digital_card_art_token: null,
    network_program_token: null,
    product_id: card.productId,
    replacement_for: card.replacementFor,
    substatus: null,
  };
}

/** Simulated traffic says nothing of a terminal or how the card was read. */
const UNKNOWN_POS: PosResponse = {
  entry_mode: { card: 'UNKNOWN', cardholder: 'UNKNOWN', pan: 'UNKNOWN', pin_entered: false },
  terminal: {
    attended: false,
    card_retention_capable: false,
    on_premise: false,
    operator: 'UNKNOWN',
    partial_approval_capable: false,
    pin_capability: 'UNSPECIFIED',
    type: 'UNKNOWN',
    acceptor_terminal_id: null,
  },
};

/**
 * Cardholder amount per merchant amount at the authorization's own rate, as Lithic writes it
 * (a decimal string, six places); 1 when the merchant amount was 0 (no rate can be read from it).
 */
export function conversionRate(rateAmount: bigint, rateMerchantAmount: bigint): string {
  if (rateMerchantAmount === 0n) return '1.000000';
  const scaled = (rateAmount * 1_000_000n * 2n + rateMerchantAmount) / (rateMerchantAmount * 2n);
  const digits = scaled.toString().padStart(7, '0');
  return `${digits.slice(0, -6)}.${digits.slice(-6)}`;
}

/**
 * One event as the spec has it (amount, created, result, token, type) and Lithic's fields beside:
 * the event's amount in each currency at the transaction's own rate, the settlement amount only for
 * events that move funds, the detailed result and polarity by the domain's rules, the enforced auth
 * rules that refused an authorization, and no network facts (none exist for simulated traffic).
 */
function presentTransactionEvent(row: PresentableTransaction, rate: RowRate, entry: TransactionEventEntry): TransactionEventResponse {
  const { conversion_rate } = rate;
  return {
    amount: entry.amount,
    created: isoSeconds(new Date(entry.created)),
    result: entry.result,
    token: entry.token,
    type: entry.type,
    amounts: {
      cardholder: { amount: entry.amount, conversion_rate, currency: CARDHOLDER_CURRENCY },
      merchant: { amount: localAmountAtRate(rate, entry.amount), currency: row.merchantCurrency },
      settlement: isFinancialEvent(entry.type) ? { amount: entry.amount, conversion_rate, currency: CARDHOLDER_CURRENCY } : null,
    },
    detailed_results: [detailedResultOf(entry)],
    effective_polarity: effectivePolarity(entry.type),
    network_info: null,
    rule_results: refusingRuleResults(entry).map((result) => ({ auth_rule_token: result.authRuleToken, explanation: result.explanation, name: result.name, result: result.detailedResult })),
  };
}

/** A transaction's rate as its events are presented with it: worked out once per transaction. */
interface RowRate {
  readonly amount: number;
  readonly merchantAmount: number;
  readonly conversion_rate: string;
}

/** A transactions row; the projector leaves acquirer_fee to its default (0) and does not carry it. */
export type PresentableTransaction = Omit<Transaction, 'acquirerFee' | 'events'> & { readonly acquirerFee?: bigint; readonly events: unknown };

/** `fundingType` is that of the transaction's own funding source, which the card may have left since. */
export function presentTransaction<C extends CardWithoutSecrets>(
  row: PresentableTransaction,
  card: C,
  fundingType: string,
): Omit<TransactionResponse, 'card'> & { card: C } {
  const amount = Number(row.amount);
  const rate: RowRate = { amount: Number(row.rateAmount), merchantAmount: Number(row.rateMerchantAmount), conversion_rate: conversionRate(row.rateAmount, row.rateMerchantAmount) };
  const entries = row.events as unknown as TransactionEventEntry[];
  // The card as the transaction shows it: with the enforced rules its authorization ran, when any did.
  const ruleTokens = enforcedRuleTokens(entries[0]);
  // One object literal, Lithic's fields first (the order the API has always written): spreading a
  // second object into it cost a third of a list page's presentation (profiled, docs/benchmarks.md).
  return {
    account_token: row.programToken,
    card_token: row.cardToken,
    updated: isoSeconds(row.updated),
    amounts: {
      cardholder: { amount, conversion_rate: rate.conversion_rate, currency: CARDHOLDER_CURRENCY },
      hold: { amount: row.status === 'PENDING' ? amount : 0, currency: CARDHOLDER_CURRENCY },
      merchant: { amount: Number(row.merchantAmount), currency: row.merchantCurrency },
      settlement: { amount: Number(row.settledAmount), currency: CARDHOLDER_CURRENCY },
    },
    pos: UNKNOWN_POS,
    network: null,
    network_risk_score: null,
    acquirer_reference_number: null,
    avs: null,
    cardholder_authentication: entries[0]?.cardholderAuthentication ? presentCardholderAuthentication(entries[0].cardholderAuthentication) : null,
    financial_account_token: null,
    service_location: null,
    token_info: presentTokenInfo(entries[0]?.tokenInfo),
    tags: {},
    acquirer_fee: Number(row.acquirerFee ?? 0n),
    amount,
    authorization_amount: Number(row.authorizationAmount),
    authorization_code: row.authorizationCode,
    card: ruleTokens.length === 0 ? card : { ...card, auth_rule_tokens: ruleTokens },
    created: isoSeconds(row.created),
    events: entries.map((entry) => presentTransactionEvent(row, rate, entry)),
    funding: [{ amount, token: row.fundingToken, type: fundingType }],
    merchant: {
      acceptor_id: row.merchantAcceptorId,
      city: row.merchantCity,
      country: row.merchantCountry,
      descriptor: row.merchantDescriptor,
      mcc: row.merchantMcc,
      state: row.merchantState,
      acquiring_institution_id: '',
      phone_number: null,
      postal_code: null,
      street_address: null,
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
