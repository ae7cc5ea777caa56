import Lithic from 'lithic';
import { Webhook } from 'standardwebhooks';
import { eventually, LocalReceiver } from '@ledger/test-support';
import { ledgerForTests } from './test-ledger';

/**
 * Lithic's `auth_rules.backtest_report.created`: a backtest's report goes out as a webhook signed the
 * standard-webhooks way (checked with the standardwebhooks library), carrying the results retrieve
 * shows, and into the events feed under the same type.
 */

const FAST_WEBHOOKS = { WEBHOOK_RETRY_SCHEDULE: '0,200ms', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' };

describe('the lithic SDK: auth rule backtest reports as webhooks', () => {
  const t = ledgerForTests(FAST_WEBHOOKS);
  const receiver = new LocalReceiver(() => ({ status: 200, body: {} }));
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('sends the report, verified by standardwebhooks, and lists it in the events feed', async () => {
    const client = new Lithic({ apiKey: t.apiKey, baseURL: t.baseUrl, maxRetries: 0 });
    const subscription = await client.events.subscriptions.create({ url: receiver.url('/backtests'), event_types: ['auth_rules.backtest_report.created'] });
    const { secret } = await client.events.subscriptions.retrieveSecret(subscription.token);
    const card = await client.cards.create({ type: 'VIRTUAL' });
    await client.transactions.simulateAuthorization({ amount: 500, descriptor: 'CIGAR SHOP', mcc: '5993', pan: card.pan! });
    const rule = await client.authRules.v2.create({
      type: 'CONDITIONAL_ACTION',
      program_level: true,
      parameters: { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['5993'] }] },
    });

    const { backtest_token } = await client.authRules.v2.backtests.create(rule.token, {});
    const report = await client.authRules.v2.backtests.retrieve(backtest_token!, { auth_rule_token: rule.token });

    const [delivery] = await eventually('the backtest report webhook', async () => receiver.requestsTo('/backtests').length > 0 && receiver.requestsTo('/backtests'));
    expect(() => new Webhook(secret!).verify(delivery.raw, delivery.headers as Record<string, string>)).not.toThrow();
    expect(delivery.body).toEqual({ event_type: 'auth_rules.backtest_report.created', ...report });
    expect(report.results.draft_version).toMatchObject({ declined: 1 });

    const feed = [];
    for await (const event of client.events.list({ event_types: ['auth_rules.backtest_report.created'] })) feed.push(event);
    expect(feed).toHaveLength(1);
    expect(feed[0].event_type).toBe('auth_rules.backtest_report.created');
    expect((feed[0] as unknown as { payload: unknown }).payload).toEqual(delivery.body);
  });
});
