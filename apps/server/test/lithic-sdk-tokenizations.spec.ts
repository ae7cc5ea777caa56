import Lithic from 'lithic';
import { runAdminCommand } from '@ledger/admin';
import type { Tokenization } from 'lithic/resources/tokenizations';
import type { CardProvisionResponse, CardWebProvisionResponse } from 'lithic/resources/cards/cards';
import { ledgerForTests } from './test-ledger';

/**
 * `client.tokenizations` and `cards.provision` / `cards.webProvision` of the official SDK against the
 * service: a DIGITAL_WALLET card tokenized by a simulated wallet, the token moved through its
 * statuses, and what each status does to the token's life.
 */

describe('the lithic SDK: tokenizations', () => {
  const t = ledgerForTests();

  async function ownClient(name: string): Promise<{ client: Lithic; programToken: string }> {
    const { apiKey, programToken } = await t.createProgram(name);
    return { client: new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 }), programToken };
  }

  /** What a wallet sends for this card: its number, CVV and expiry as printed. */
  const walletRequest = (card: Lithic.Card, overrides: Partial<Lithic.TokenizationSimulateParams> = {}): Lithic.TokenizationSimulateParams => ({
    pan: card.pan!,
    cvv: card.cvv!,
    expiration_date: `${card.exp_month}/${card.exp_year!.slice(-2)}`,
    tokenization_source: 'APPLE_PAY',
    ...overrides,
  });

  const statusOf = async (client: Lithic, token: string) => (await client.tokenizations.retrieve(token)).status;
  const httpStatus = (promise: Promise<unknown>) => promise.then(() => 200, (error: unknown) => (error as { status: number }).status);

  it('tokenizes a DIGITAL_WALLET card into Apple Pay: ACTIVE, shaped as Lithic, listed and retrieved', async () => {
    const { client, programToken } = await ownClient('tokenize-approved');
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const token: Tokenization = await client.tokenizations.simulate(walletRequest(card));
    expect(token).toMatchObject({
      account_token: programToken,
      card_token: card.token,
      status: 'ACTIVE',
      token_requestor_name: 'APPLE_PAY',
      tokenization_channel: 'DIGITAL_WALLET',
      dpan: null,
      events: [{ type: 'TOKENIZATION_AUTHORIZATION', result: 'APPROVED', tokenization_decline_reasons: [], tokenization_tfa_reasons: [] }],
    });
    expect(token.token_unique_reference).toBe(`DNITHE${token.token.replace(/-/g, '').toUpperCase()}`);
    expect(await client.tokenizations.retrieve(token.token)).toEqual(token);
    const listed: Tokenization[] = [];
    for await (const one of client.tokenizations.list({ card_token: card.token })) listed.push(one);
    expect(listed.map((one) => one.token)).toEqual([token.token]);
  });

  it('declines what the wallet or the card refuses, with Lithic\'s reasons; the declined token can never be activated', async () => {
    const { client } = await ownClient('tokenize-declined');
    const wallet = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const virtual = await client.cards.create({ type: 'VIRTUAL' });
    const red = await client.tokenizations.simulate(walletRequest(wallet, { wallet_recommended_decision: 'DECLINED' }));
    expect(red.status).toBe('DEACTIVATED');
    expect(red.events?.[0]).toMatchObject({ result: 'DECLINED', tokenization_decline_reasons: ['WALLET_RECOMMENDED_DECISION_RED'] });
    const wrongCvv = await client.tokenizations.simulate(walletRequest(wallet, { cvv: wallet.cvv === '000' ? '001' : '000', device_score: 1 }));
    expect(wrongCvv.events?.[0].tokenization_decline_reasons).toEqual(['CVC_MISMATCH', 'DEVICE_SCORE_1']);
    const notAWalletCard = await client.tokenizations.simulate(walletRequest(virtual));
    expect(notAWalletCard.events?.[0].tokenization_decline_reasons).toEqual(['CARD_INVALID_STATE']);
    expect(await httpStatus(client.tokenizations.activate(red.token))).toBe(409);
  });

  it('keeps a token waiting for 2FA until it is activated; the activation code can be sent again meanwhile', async () => {
    const { client } = await ownClient('tokenize-2fa');
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const token = await client.tokenizations.simulate(walletRequest(card, { tokenization_source: 'GOOGLE', wallet_recommended_decision: 'REQUIRE_ADDITIONAL_AUTHENTICATION' }));
    expect(token).toMatchObject({ status: 'PENDING_2FA', token_requestor_name: 'GOOGLE_PAY', events: [{ result: 'REQUIRE_ADDITIONAL_AUTHENTICATION', tokenization_tfa_reasons: ['WALLET_RECOMMENDED_TFA'] }] });
    await client.tokenizations.resendActivationCode(token.token, { activation_method_type: 'EMAIL_TO_CARDHOLDER_ADDRESS' });
    await client.tokenizations.activate(token.token);
    const active = await client.tokenizations.retrieve(token.token);
    expect(active.status).toBe('ACTIVE');
    expect(active.events?.map((event) => event.result)).toEqual(['REQUIRE_ADDITIONAL_AUTHENTICATION', 'NOTIFICATION_DELIVERED', 'TOKEN_ACTIVATED']);
    expect(await httpStatus(client.tokenizations.resendActivationCode(token.token))).toBe(409);
  });

  it('pauses, unpauses and deactivates a token, refusing what its status does not allow', async () => {
    const { client } = await ownClient('tokenize-lifecycle');
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const { token } = await client.tokenizations.simulate(walletRequest(card));
    await client.tokenizations.pause(token);
    expect(await statusOf(client, token)).toBe('PAUSED');
    expect(await httpStatus(client.tokenizations.pause(token))).toBe(409);
    await client.tokenizations.unpause(token);
    expect(await statusOf(client, token)).toBe('ACTIVE');
    const art = await client.tokenizations.updateDigitalCardArt(token, { digital_card_art_token: '5e9483eb-8103-4e16-9702-09374a0e0d1a' });
    expect(art.digital_card_art_token).toBe('5e9483eb-8103-4e16-9702-09374a0e0d1a');
    await client.tokenizations.deactivate(token);
    expect(await statusOf(client, token)).toBe('DEACTIVATED');
    expect(await httpStatus(client.tokenizations.unpause(token))).toBe(409);
  });

  it("answers another program's token, or an unknown card number, as not found", async () => {
    const { client } = await ownClient('tokenize-owner');
    const { client: other } = await ownClient('tokenize-other');
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const { token } = await client.tokenizations.simulate(walletRequest(card));
    expect(await httpStatus(other.tokenizations.retrieve(token))).toBe(404);
    expect(await httpStatus(other.tokenizations.pause(token))).toBe(404);
    expect(await httpStatus(other.tokenizations.simulate(walletRequest(card)))).toBe(404);
    expect(await statusOf(client, token)).toBe('ACTIVE');
  });

  it('lists DIGITAL_WALLET tokens unless asked for MERCHANT ones or ALL, filtered by card and time', async () => {
    const { client } = await ownClient('tokenize-list');
    const [one, two] = [await client.cards.create({ type: 'DIGITAL_WALLET' }), await client.cards.create({ type: 'DIGITAL_WALLET' })];
    const apple = await client.tokenizations.simulate(walletRequest(one));
    const merchant = await client.tokenizations.simulate(walletRequest(one, { tokenization_source: 'MERCHANT' }));
    const samsung = await client.tokenizations.simulate(walletRequest(two, { tokenization_source: 'SAMSUNG_PAY' }));
    const tokens = async (params: Lithic.TokenizationListParams) => (await client.tokenizations.list(params)).data.map((token) => token.token);
    expect(merchant).toMatchObject({ tokenization_channel: 'MERCHANT', token_requestor_name: 'UNKNOWN' });
    expect(await tokens({})).toEqual([apple.token, samsung.token]);
    expect(await tokens({ tokenization_channel: 'ALL' })).toEqual([apple.token, merchant.token, samsung.token]);
    expect(await tokens({ tokenization_channel: 'MERCHANT' })).toEqual([merchant.token]);
    expect(await tokens({ card_token: two.token })).toEqual([samsung.token]);
    expect(await tokens({ end: apple.created_at })).toEqual([]);
    expect(await tokens({ tokenization_channel: 'ALL', page_size: 1, starting_after: apple.token })).toEqual([merchant.token]);
  });

  /** A purchase through the token (the extension field `tokenization_token`): APPROVED or the decline's result. */
  async function purchaseThrough(client: Lithic, card: Lithic.Card, tokenizationToken: string | undefined, mcc = '5812'): Promise<{ result: string; transaction: Lithic.Transaction }> {
    const params = { amount: 700, descriptor: 'COFFEE SHOP', mcc, pan: card.pan!, ...(tokenizationToken === undefined ? {} : { tokenization_token: tokenizationToken }) };
    const token = await client.transactions.simulateAuthorization(params as Lithic.TransactionSimulateAuthorizationParams).then(
      (answer) => answer.token!,
      (error: unknown) => (error as { error: { token: string } }).error.token,
    );
    const transaction = await client.transactions.retrieve(token);
    return { result: transaction.result, transaction };
  }

  it('shows the wallet of a transaction made through a token; a paused token declines, unpaused approves again, deactivated declines for good', async () => {
    const { client } = await ownClient('token-spend');
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const { token } = await client.tokenizations.simulate(walletRequest(card, { tokenization_source: 'GOOGLE' }));
    const first = await purchaseThrough(client, card, token);
    expect(first.result).toBe('APPROVED');
    expect(first.transaction.token_info).toEqual({ wallet_type: 'GOOGLE_PAY' });
    expect((await purchaseThrough(client, card, undefined)).transaction.token_info).toBeNull();
    await client.tokenizations.pause(token);
    const paused = await purchaseThrough(client, card, token);
    expect(paused.result).toBe('CARD_PAUSED');
    expect(paused.transaction.token_info).toEqual({ wallet_type: 'GOOGLE_PAY' });
    // The card itself still spends: only its token is paused.
    expect((await purchaseThrough(client, card, undefined)).result).toBe('APPROVED');
    await client.tokenizations.unpause(token);
    expect((await purchaseThrough(client, card, token)).result).toBe('APPROVED');
    await client.tokenizations.deactivate(token);
    expect((await purchaseThrough(client, card, token)).result).toBe('CARD_CLOSED');
    // The token's transactions are the card's like any other: verify finds nothing to report for them.
    const verified = await runAdminCommand(t.ledger.app, ['verify']);
    const mismatches = (verified.output as { ledgerMismatches: { token: string }[] }).ledgerMismatches;
    expect(mismatches.filter((mismatch) => [card.token, card.funding?.token, card.account_token].includes(mismatch.token))).toEqual([]);
  });

  it('refuses a token of another card (400), and an unknown one (404)', async () => {
    const { client } = await ownClient('token-other-card');
    const [one, two] = [await client.cards.create({ type: 'DIGITAL_WALLET' }), await client.cards.create({ type: 'DIGITAL_WALLET' })];
    const { token } = await client.tokenizations.simulate(walletRequest(one));
    const through = (card: Lithic.Card, tokenizationToken: string) =>
      httpStatus(client.transactions.simulateAuthorization({ amount: 100, descriptor: 'SHOP', pan: card.pan!, tokenization_token: tokenizationToken } as Lithic.TransactionSimulateAuthorizationParams));
    expect(await through(two, token)).toBe(400);
    expect(await through(one, '5e9483eb-8103-4e16-9702-09374a0e0d1a')).toBe(404);
  });

  it("lets an auth rule's WALLET_TYPE see the token's wallet", async () => {
    const { client } = await ownClient('token-wallet-rule');
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const apple = await client.tokenizations.simulate(walletRequest(card));
    const samsung = await client.tokenizations.simulate(walletRequest(card, { tokenization_source: 'SAMSUNG_PAY' }));
    const rule = await client.authRules.v2.create({
      type: 'CONDITIONAL_ACTION',
      program_level: true,
      parameters: { action: 'DECLINE', conditions: [{ attribute: 'WALLET_TYPE', operation: 'IS_ONE_OF', value: ['APPLE_PAY'] }] },
    });
    await client.authRules.v2.promote(rule.token);
    expect((await purchaseThrough(client, card, apple.token)).result).not.toBe('APPROVED');
    expect((await purchaseThrough(client, card, samsung.token)).result).toBe('APPROVED');
    expect((await purchaseThrough(client, card, undefined)).result).toBe('APPROVED');
  });

  it('provisions a DIGITAL_WALLET card with the same payload for the same device, and refuses other cards', async () => {
    const { client } = await ownClient('provision');
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const apple: CardProvisionResponse = await client.cards.provision(card.token, { digital_wallet: 'APPLE_PAY', nonce: 'n-1', nonce_signature: 's-1', certificate: 'c-1' });
    expect(apple.provisioning_payload).toEqual({ activationData: expect.any(String), encryptedData: expect.any(String), ephemeralPublicKey: expect.any(String) });
    expect(await client.cards.provision(card.token, { digital_wallet: 'APPLE_PAY', nonce: 'n-1', nonce_signature: 's-1', certificate: 'c-1' })).toEqual(apple);
    expect(await client.cards.provision(card.token, { digital_wallet: 'APPLE_PAY', nonce: 'n-2', nonce_signature: 's-1', certificate: 'c-1' })).not.toEqual(apple);
    const google = await client.cards.provision(card.token, { digital_wallet: 'GOOGLE_PAY' });
    expect(typeof google.provisioning_payload).toBe('string');
    expect(JSON.stringify(apple) + JSON.stringify(google)).not.toContain(card.pan!);
    const web = (await client.cards.webProvision(card.token, { digital_wallet: 'APPLE_PAY', server_session_id: 'session-1' })) as CardWebProvisionResponse.AppleWebPushProvisioningResponse;
    expect(web).toEqual({ jws: { header: { kid: 'sandbox' }, payload: expect.any(String), protected: expect.any(String), signature: expect.any(String) }, state: expect.any(String) });
    expect(JSON.parse(Buffer.from(web.jws.payload!, 'base64url').toString())).toMatchObject({ card_token: card.token });
    const googleWeb = (await client.cards.webProvision(card.token, { digital_wallet: 'GOOGLE_PAY' })) as CardWebProvisionResponse.GoogleWebPushProvisioningResponse;
    expect(googleWeb).toEqual({ google_opc: expect.any(String), tsp_opc: expect.any(String) });
    const virtual = await client.cards.create({ type: 'VIRTUAL' });
    expect(await httpStatus(client.cards.provision(virtual.token, { digital_wallet: 'APPLE_PAY' }))).toBe(409);
    await client.cards.update(card.token, { state: 'PAUSED' });
    expect(await httpStatus(client.cards.webProvision(card.token, {}))).toBe(409);
  });
});
