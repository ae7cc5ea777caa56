import Lithic from 'lithic';
import type { ThreeDSAuthentication } from 'lithic/resources/three-ds/three-ds';
import type { TransactionSimulateAuthorizationParams } from 'lithic/resources/transactions/transactions';
import { runAdminCommand } from '@ledger/admin';
import { ledgerForTests } from './test-ledger';

/**
 * `client.threeDS` of the official SDK against the service: simulated authentications, the OTP
 * challenge and the program's out-of-band answer, and the authorization that follows one showing it
 * as its `cardholder_authentication`.
 */

const coffeeShop = { id: 'OODKZAPJVN4YS7O', country: 'USA', mcc: '5812', name: 'COFFEE SHOP' };
const challengingShop = { ...coffeeShop, name: 'CHALLENGE COFFEE' };

/** simulate/authorize with our field naming the 3DS authentication it follows (not in Lithic's params). */
function authorizationAfter(pan: string, threeDSAuthenticationToken: string, amount = 1_250): TransactionSimulateAuthorizationParams {
  return { amount, descriptor: 'COFFEE SHOP', mcc: '5812', merchant_acceptor_id: coffeeShop.id, pan, three_ds_authentication_token: threeDSAuthenticationToken } as TransactionSimulateAuthorizationParams;
}

describe('the lithic SDK: 3-D Secure', () => {
  const t = ledgerForTests();
  let client: Lithic;
  let pan: string;
  let cardToken: string;
  /** Before the card's first transaction: the moment an as_of view shows none. */
  let beforeAnyTransaction: string;

  beforeAll(async () => {
    const { apiKey } = await t.createProgram('three-ds');
    client = new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
    const card = await client.cards.create({ type: 'VIRTUAL' });
    pan = card.pan!;
    cardToken = card.token;
    beforeAnyTransaction = new Date().toISOString();
  });

  it('authenticates an ordinary purchase without friction, and retrieve shows it', async () => {
    const { token } = await client.threeDS.authentication.simulate({ merchant: coffeeShop, pan, transaction: { amount: 1_250, currency: 'USD' } });
    const authentication: ThreeDSAuthentication = await client.threeDS.authentication.retrieve(token!);
    expect(authentication).toMatchObject({
      token,
      card_token: cardToken,
      authentication_result: 'SUCCESS',
      card_expiry_check: 'MATCH',
      challenge_metadata: null,
      challenge_orchestrated_by: 'NO_CHALLENGE',
      decision_made_by: 'LITHIC_DEFAULT',
      message_category: 'PAYMENT_AUTHENTICATION',
      merchant: { id: coffeeShop.id, country: 'USA', mcc: '5812', name: 'COFFEE SHOP' },
      transaction: { amount: 1_250, currency: 'USD', currency_exponent: 2 },
    });
  });

  it('challenges a merchant named with CHALLENGE; the right OTP authenticates it, and the authorization after it shows the challenge passed', async () => {
    const { token } = await client.threeDS.authentication.simulate({ merchant: challengingShop, pan, transaction: { amount: 1_250, currency: 'USD' } });
    expect(await client.threeDS.authentication.retrieve(token!)).toMatchObject({ authentication_result: 'PENDING_CHALLENGE', challenge_metadata: { method_type: 'SMS_OTP', status: 'PENDING' } });

    await client.threeDS.authentication.simulateOtpEntry({ token: token!, otp: '123456' });
    expect(await client.threeDS.authentication.retrieve(token!)).toMatchObject({ authentication_result: 'SUCCESS', challenge_metadata: { status: 'SUCCESS' }, challenge_orchestrated_by: 'LITHIC' });

    const authorized = await client.transactions.simulateAuthorization(authorizationAfter(pan, token!));
    const transaction = await client.transactions.retrieve(authorized.token!);
    expect(transaction.cardholder_authentication).toEqual({
      authentication_method: 'CHALLENGE',
      authentication_result: 'SUCCESS',
      decision_made_by: 'LITHIC_DEFAULT',
      liability_shift: '3DS_AUTHENTICATED',
      three_ds_authentication_token: token,
    });
    // Recorded in the authorization's own event, so a replay shows it without the authentication's stream.
    const { rows } = await t.pool.query<{ data: { cardholderAuthentication?: { threeDSAuthenticationToken: string } } }>(
      `select data from events where event_type = 'CardAuthorizationApproved' and data->>'transactionToken' = $1`,
      [authorized.token],
    );
    expect(rows.map(({ data }) => data.cardholderAuthentication?.threeDSAuthenticationToken)).toEqual([token]);
  });

  it('declines a challenge answered with another OTP, and a second attempt is refused', async () => {
    const { token } = await client.threeDS.authentication.simulate({ merchant: challengingShop, pan, transaction: { amount: 900, currency: 'USD' } });
    await client.threeDS.authentication.simulateOtpEntry({ token: token!, otp: '999999' });
    expect(await client.threeDS.authentication.retrieve(token!)).toMatchObject({ authentication_result: 'DECLINE', challenge_metadata: { status: 'ATTEMPTS_EXCEEDED' } });
    await expect(client.threeDS.authentication.simulateOtpEntry({ token: token!, otp: '123456' })).rejects.toMatchObject({ status: 409 });

    const authorized = await client.transactions.simulateAuthorization(authorizationAfter(pan, token!, 900));
    expect((await client.transactions.retrieve(authorized.token!)).cardholder_authentication).toMatchObject({ authentication_result: 'DECLINE', liability_shift: 'NONE' });
  });

  it('takes the out-of-band challenge response: APPROVE authenticates, DECLINE_BY_CUSTOMER declines', async () => {
    const approved = await client.threeDS.authentication.simulate({ merchant: challengingShop, pan, transaction: { amount: 700, currency: 'USD' } });
    await client.threeDS.decisioning.challengeResponse({ token: approved.token!, challenge_response: 'APPROVE' });
    expect(await client.threeDS.authentication.retrieve(approved.token!)).toMatchObject({
      authentication_result: 'SUCCESS',
      challenge_orchestrated_by: 'CUSTOMER',
      decision_made_by: 'CUSTOMER_ENDPOINT',
      challenge_metadata: { method_type: 'OUT_OF_BAND', status: 'SUCCESS' },
    });
    const declined = await client.threeDS.authentication.simulate({ merchant: challengingShop, pan, transaction: { amount: 700, currency: 'USD' } });
    await client.threeDS.decisioning.challengeResponse({ token: declined.token!, challenge_response: 'DECLINE_BY_CUSTOMER' });
    expect(await client.threeDS.authentication.retrieve(declined.token!)).toMatchObject({ authentication_result: 'DECLINE', challenge_metadata: { status: 'CANCELED_OOB' } });
  });

  it('declines an authentication whose expiry the cardholder typed wrong', async () => {
    const { token } = await client.threeDS.authentication.simulate({ merchant: challengingShop, pan, transaction: { amount: 500, currency: 'USD' }, card_expiry_check: 'MISMATCH' });
    expect(await client.threeDS.authentication.retrieve(token!)).toMatchObject({ authentication_result: 'DECLINE', card_expiry_check: 'MISMATCH', challenge_metadata: null });
  });

  it('leaves cardholder_authentication null on an authorization that names no authentication', async () => {
    const authorized = await client.transactions.simulateAuthorization({ amount: 300, descriptor: 'COFFEE SHOP', pan });
    expect((await client.transactions.retrieve(authorized.token!)).cardholder_authentication).toBeNull();
  });

  it("answers 404 for an unknown authentication, another program's, or one of another card named by an authorization", async () => {
    const { token } = await client.threeDS.authentication.simulate({ merchant: coffeeShop, pan, transaction: { amount: 100, currency: 'USD' } });
    await expect(client.threeDS.authentication.retrieve('0b8d2a4e-6c1f-4e3a-9d5b-7f2e1c0a8b6d')).rejects.toMatchObject({ status: 404 });
    const other = await t.createProgram('three-ds-other');
    const otherClient = new Lithic({ apiKey: other.apiKey, baseURL: t.baseUrl, maxRetries: 0 });
    await expect(otherClient.threeDS.authentication.retrieve(token!)).rejects.toMatchObject({ status: 404 });
    const otherCard = await client.cards.create({ type: 'VIRTUAL' });
    await expect(client.transactions.simulateAuthorization(authorizationAfter(otherCard.pan!, token!, 100))).rejects.toMatchObject({ status: 404 });
  });

  it('after all of the above, replays identically, verifies clean, and as_of shows the transactions with their cardholder authentication', async () => {
    const replay = await runAdminCommand(t.ledger.app, ['replay']);
    expect(replay.output).toMatchObject({ identical: true, differenceCount: 0 });
    const verify = await runAdminCommand(t.ledger.app, ['verify']);
    expect(verify.ok).toBe(true);

    const live = await client.transactions.list({ card_token: cardToken });
    const asOf = (moment: string) => client.transactions.list({ card_token: cardToken }, { query: { as_of: moment } });
    const authentications = (page: typeof live) => page.data.map((transaction) => transaction.cardholder_authentication);
    expect(authentications(live).filter((shown) => shown !== null)).toHaveLength(2);
    expect((await asOf(beforeAnyTransaction)).data).toEqual([]);
    expect(authentications(await asOf(new Date(Date.now() + 1_000).toISOString()))).toEqual(authentications(live));
  });
});
