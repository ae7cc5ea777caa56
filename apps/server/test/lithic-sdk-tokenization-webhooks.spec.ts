import Lithic from 'lithic';
import type { TokenizationResultWebhookEvent, TokenizationUpdatedWebhookEvent } from 'lithic/resources/webhooks';
import { Webhook } from 'standardwebhooks';
import { eventually, LocalReceiver } from '@ledger/test-support';
import { kafkaFeedBodies } from './kafka-feed-bodies';
import { ledgerForTests } from './test-ledger';

/**
 * Lithic's `tokenization.result`: each wallet's request, once decided, goes out as a webhook signed the
 * standard-webhooks way (checked with the standardwebhooks library) in the shape of Lithic's
 * TokenizationResultWebhookEvent, and into the events feed under the same type. Its
 * `tokenization.updated`: each later change of the token's status or data goes out with the whole
 * token as retrieve showed it right after that change (TokenizationUpdatedWebhookEvent).
 */

const FAST_WEBHOOKS = { WEBHOOK_RETRY_SCHEDULE: '0,200ms', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' };

describe('the lithic SDK: tokenization results as webhooks', () => {
  const t = ledgerForTests(FAST_WEBHOOKS);
  const receiver = new LocalReceiver(() => ({ status: 200, body: {} }));
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('sends each decided tokenization, verified by standardwebhooks, and lists it in the events feed', async () => {
    const { apiKey, programToken } = await t.createProgram('tokenization-webhooks');
    const client = new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
    const subscription = await client.events.subscriptions.create({ url: receiver.url('/tokens'), event_types: ['tokenization.result'] });
    const { secret } = await client.events.subscriptions.retrieveSecret(subscription.token);
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const request = { pan: card.pan!, cvv: card.cvv!, expiration_date: `${card.exp_month}/${card.exp_year!.slice(-2)}`, tokenization_source: 'APPLE_PAY' as const };
    const approved = await client.tokenizations.simulate(request);
    const declined = await client.tokenizations.simulate({ ...request, account_score: 1 });

    const deliveries = await eventually('both tokenization results', async () => receiver.requestsTo('/tokens').length >= 2 && receiver.requestsTo('/tokens'));
    for (const delivery of deliveries) expect(() => new Webhook(secret!).verify(delivery.raw, delivery.headers as Record<string, string>)).not.toThrow();
    const expected = (token: Lithic.Tokenization, decision: string, reasons: TokenizationResultWebhookEvent.TokenizationResultDetails['tokenization_decline_reasons']): TokenizationResultWebhookEvent => ({
      event_type: 'tokenization.result',
      account_token: programToken,
      card_token: card.token,
      created: token.created_at,
      tokenization_token: token.token,
      tokenization_result_details: {
        issuer_decision: decision,
        tokenization_decline_reasons: reasons,
        tokenization_tfa_reasons: [],
        customer_decision: null,
        rule_results: [],
        token_activated_date_time: decision === 'APPROVED' ? token.created_at : null,
        wallet_decision: null,
      },
    });
    expect(deliveries.map((delivery) => delivery.body)).toEqual([expected(approved, 'APPROVED', []), expected(declined, 'DECLINED', ['ACCOUNT_SCORE_1'])]);

    const feed = [];
    for await (const event of client.events.list({ event_types: ['tokenization.result'] })) feed.push(event);
    expect(feed.map((event) => (event as unknown as { payload: unknown }).payload)).toEqual(expect.arrayContaining(deliveries.map((delivery) => delivery.body)));
    expect(feed).toHaveLength(2);
  });

  it("sends each change of a token with the token as it was then, verified by standardwebhooks, in the events feed, and the Kafka feed's bodies are the same bytes", async () => {
    const { apiKey, programToken } = await t.createProgram('tokenization-updates');
    const client = new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
    const subscription = await client.events.subscriptions.create({ url: receiver.url('/token-updates'), event_types: ['tokenization.updated'] });
    const { secret } = await client.events.subscriptions.retrieveSecret(subscription.token);
    const card = await client.cards.create({ type: 'DIGITAL_WALLET' });
    const { token } = await client.tokenizations.simulate({ pan: card.pan!, cvv: card.cvv!, expiration_date: `${card.exp_month}/${card.exp_year!.slice(-2)}`, tokenization_source: 'GOOGLE' });
    const states: Lithic.Tokenization[] = [];
    await client.tokenizations.pause(token);
    states.push(await client.tokenizations.retrieve(token));
    await client.tokenizations.unpause(token);
    states.push(await client.tokenizations.retrieve(token));
    states.push(await client.tokenizations.updateDigitalCardArt(token, { digital_card_art_token: '5e9483eb-8103-4e16-9702-09374a0e0d1a' }));
    await client.tokenizations.deactivate(token);
    states.push(await client.tokenizations.retrieve(token));

    const deliveries = await eventually('a webhook for each change', async () => receiver.requestsTo('/token-updates').length >= states.length && receiver.requestsTo('/token-updates'));
    expect(deliveries).toHaveLength(states.length);
    for (const delivery of deliveries) expect(() => new Webhook(secret!).verify(delivery.raw, delivery.headers as Record<string, string>)).not.toThrow();

    // The Kafka feed, rendering each body once the token is deactivated, gives each change's own bytes.
    const kafka = await kafkaFeedBodies(t, `tokenization-${token}`, 'tokenization.updated', subscription.token);
    expect(kafka.size).toBe(states.length);
    const delivered = new Map(deliveries.map((delivery) => [String(delivery.headers['webhook-id']), delivery]));
    for (const [id, body] of kafka) expect(delivered.get(id)?.raw).toBe(body);

    const bodies = [...kafka.keys()].map((id) => delivered.get(id)!.body as TokenizationUpdatedWebhookEvent);
    const expected: TokenizationUpdatedWebhookEvent[] = states.map((state) => ({ event_type: 'tokenization.updated', account_token: programToken, card_token: card.token, created: state.updated_at, tokenization: state }));
    expect(bodies).toEqual(expected);
    expect(bodies.map((body) => [body.tokenization.status, body.tokenization.events?.at(-1)?.result])).toEqual([
      ['PAUSED', 'TOKEN_SUSPENDED'],
      ['ACTIVE', 'TOKEN_ACTIVATED'],
      ['ACTIVE', 'TOKEN_UPDATED'],
      ['DEACTIVATED', 'TOKEN_DEACTIVATED'],
    ]);
    expect(bodies[2].tokenization.digital_card_art_token).toBe('5e9483eb-8103-4e16-9702-09374a0e0d1a');

    const feed = [];
    for await (const event of client.events.list({ event_types: ['tokenization.updated'] })) feed.push(event);
    expect(feed.map((event) => (event as unknown as { payload: unknown }).payload)).toEqual(expect.arrayContaining(bodies));
    expect(feed).toHaveLength(states.length);
  });
});
