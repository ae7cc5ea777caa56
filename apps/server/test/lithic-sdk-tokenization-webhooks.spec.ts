import Lithic from 'lithic';
import type { TokenizationResultWebhookEvent } from 'lithic/resources/webhooks';
import { Webhook } from 'standardwebhooks';
import { eventually, LocalReceiver } from '@ledger/test-support';
import { ledgerForTests } from './test-ledger';

/**
 * Lithic's `tokenization.result`: each wallet's request, once decided, goes out as a webhook signed the
 * standard-webhooks way (checked with the standardwebhooks library) in the shape of Lithic's
 * TokenizationResultWebhookEvent, and into the events feed under the same type.
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
});
