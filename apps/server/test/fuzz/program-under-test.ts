import { eventually } from '@ledger/test-support';
import type { TestLedger } from '../test-ledger';
import type { ProgramUnderTest } from './request-cases';

/** The real things of a test program that deep paths need: a card with its PAN, a transaction, a webhook message… */
export interface RealTokens {
  readonly account: string;
  readonly card: string;
  readonly pan: string;
  readonly transaction: string;
  readonly funding: string;
  readonly subscription: string;
  readonly message: string;
  /** The id of one of the program's events (the audit proof's path). */
  readonly event: string;
  readonly authRule: string;
  /** A backtest of that rule. */
  readonly backtest: string;
  readonly financialAccount: string;
  readonly statement: string;
  /** A 3DS authentication of the card, its challenge pending. */
  readonly threeDSAuthentication: string;
  /** An ACTIVE token of the card in Apple Pay. */
  readonly tokenization: string;
  /** A dispute of a cleared purchase, and an evidence upload of it. */
  readonly dispute: string;
  readonly evidence: string;
}

/**
 * Which real token a parameter or field takes, by its name in the document (the API names them
 * consistently, so a new route taking `card_token` gets a real card without editing the suite).
 */
const TOKEN_OF_NAME: Readonly<Record<string, keyof RealTokens>> = {
  account_token: 'account',
  accounttoken: 'account',
  // A program issues on one card program, whose token is the program's.
  card_program_token: 'account',
  cardprogramtoken: 'account',
  card_token: 'card',
  cardtoken: 'card',
  replacement_for: 'card',
  pan: 'pan',
  transaction_token: 'transaction',
  /** The simulation bodies' `token` is the transaction's. */
  token: 'transaction',
  funding_token: 'funding',
  event_subscription_token: 'subscription',
  message_token: 'message',
  event_id: 'event',
  // The card's first event is its card.created, whose events-feed token is the ledger event id.
  event_token: 'event',
  auth_rule_token: 'authRule',
  auth_rule_backtest_token: 'backtest',
  financial_account_token: 'financialAccount',
  // A card transaction is its own financial transaction, under the same token.
  financial_transaction_token: 'transaction',
  statement_token: 'statement',
  three_ds_authentication_token: 'threeDSAuthentication',
  tokenization_token: 'tokenization',
  dispute_token: 'dispute',
  evidence_token: 'evidence',
};

/**
 * A program of its own, made through the API: a webhook subscription, a card, an approved
 * authorization, the webhook message of the card, an auth rule in shadow and a backtest of it. Each operation gets one, so that one operation's
 * accepted calls (closing the account, deleting the subscription) do not starve the next of deep paths.
 */
export async function programUnderTest(t: TestLedger, name: string): Promise<ProgramUnderTest & { tokens: RealTokens }> {
  const program = await t.createProgram(name);
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await t.call(method, path, { apiKey: program.apiKey, body });
    if (answer.status !== 200) throw new Error(`${name}: ${method} ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const subscription = await call('POST', '/v1/event_subscriptions', { url: 'http://127.0.0.1:9/hooks' });
  const card = await call('POST', '/v1/cards', { type: 'DIGITAL_WALLET', spend_limit: 1_000_000, spend_limit_duration: 'FOREVER' });
  const transaction = await call('POST', '/v1/simulate/authorize', { amount: 500, descriptor: 'Fuzz seed', pan: card.pan });
  const listed = (await call('GET', '/v1/funding_sources')).data;
  const funding = listed[0] ?? (await call('POST', '/v1/funding_sources', { account_name: 'Fuzz bank', account_number: '123456789' }));
  const message = await eventually(`${name}: the card.created webhook message`, async () => (await call('GET', `/v1/event_subscriptions/${subscription.token}/messages`)).data[0]);
  const event = (await call('GET', `/v1/cards/${card.token}/events`)).data[0].event_id;
  // A shadow rule (never promoted): it declines nothing the other operations send.
  const authRule = await call('POST', '/v2/auth_rules', { type: 'CONDITIONAL_ACTION', program_level: true, parameters: { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] }] } });
  const backtest = await call('POST', `/v2/auth_rules/${authRule.token}/backtests`, {});
  const threeDSAuthentication = await call('POST', '/v1/three_ds_authentication/simulate', { merchant: { id: 'M1', country: 'USA', mcc: '5812', name: 'CHALLENGE SHOP' }, pan: card.pan, transaction: { amount: 500, currency: 'USD' } });
  const tokenization = await call('POST', '/v1/simulate/tokenizations', { pan: card.pan, cvv: card.cvv, expiration_date: `${card.exp_month}/${card.exp_year.slice(-2)}`, tokenization_source: 'APPLE_PAY' });
  const disputed = await call('POST', '/v1/simulate/authorize', { amount: 300, descriptor: 'Fuzz dispute', pan: card.pan });
  await call('POST', '/v1/simulate/clearing', { token: disputed.token });
  const dispute = await call('POST', '/v1/disputes', { transaction_token: disputed.token, amount: 300, reason: 'OTHER' });
  const evidence = await call('POST', `/v1/disputes/${dispute.token}/evidences`, {});
  await eventually(`${name}: the card.created event in the events feed`, async () => (await t.call('GET', `/v1/events/${event}`, { apiKey: program.apiKey })).status === 200);
  // A statement exists once a month of the account has ended: the program's clock moves into the next month.
  const financialAccount = (await call('GET', '/v1/financial_accounts')).data[0].token;
  const now = new Date();
  await call('POST', '/v1/simulate/clock/advance', { frozen_time: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 1)).toISOString() });
  const tokens: RealTokens = {
    account: program.programToken,
    card: card.token,
    pan: card.pan,
    transaction: transaction.token,
    funding: funding.token,
    subscription: subscription.token,
    message: message.token,
    event,
    authRule: authRule.token,
    backtest: backtest.backtest_token,
    financialAccount,
    tokenization: tokenization.token,
    statement: (await call('GET', `/v1/financial_accounts/${financialAccount}/statements`)).data[0].token,
    threeDSAuthentication: threeDSAuthentication.token,
    dispute: dispute.token,
    evidence: evidence.token,
  };
  return { apiKey: program.apiKey, tokens, real: (field) => (Object.hasOwn(TOKEN_OF_NAME, field) ? tokens[TOKEN_OF_NAME[field]] : undefined) };
}
