import Lithic from 'lithic';
import type { DisputeUpdatedWebhookEvent } from 'lithic/resources/webhooks';
import { Webhook } from 'standardwebhooks';
import { eventually, LocalReceiver } from '@ledger/test-support';
import { kafkaFeedBodies } from './kafka-feed-bodies';
import { ledgerForTests } from './test-ledger';

/**
 * Lithic's `dispute.updated`: a dispute goes out when it is filed and again at each change (an
 * update while NEW, each stage, its end), signed the standard-webhooks way (checked with the
 * standardwebhooks library), each body the whole dispute as retrieve showed it right after that
 * change, typed with the SDK's DisputeUpdatedWebhookEvent. Its evidence files are no part of the
 * Dispute object, so they send nothing. The Kafka feed renders the same bytes, after the fact.
 */

const FAST_WEBHOOKS = { WEBHOOK_RETRY_SCHEDULE: '0,200ms', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' };

describe('the lithic SDK: disputes as webhooks', () => {
  const t = ledgerForTests(FAST_WEBHOOKS);
  const receiver = new LocalReceiver(() => ({ status: 200, body: {} }));
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it("sends the dispute at each change as it was then, verified by standardwebhooks, in the events feed, and the Kafka feed's bodies are the same bytes", async () => {
    const { apiKey } = await t.createProgram('dispute-webhooks');
    const client = new Lithic({ apiKey, baseURL: t.baseUrl, maxRetries: 0 });
    const subscription = await client.events.subscriptions.create({ url: receiver.url('/disputes'), event_types: ['dispute.updated'] });
    const { secret } = await client.events.subscriptions.retrieveSecret(subscription.token);
    const card = await client.cards.create({ type: 'VIRTUAL' });
    const purchase = (await client.transactions.simulateAuthorization({ amount: 5_000, descriptor: 'ELECTRONICS', pan: card.pan! })).token!;
    await client.transactions.simulateClearing({ token: purchase });
    expect((await t.call('POST', '/v1/simulate/settle', { apiKey, body: { token: purchase } })).status).toBe(200);
    const advance = async (token: string, status: string): Promise<Lithic.Dispute> => {
      const answer = await t.call('POST', `/v1/simulate/disputes/${token}/advance`, { apiKey, body: { status } });
      expect(answer.status).toBe(200);
      return answer.body as Lithic.Dispute;
    };

    const filed = await client.disputes.create({ transaction_token: purchase, amount: 3_000, reason: 'GOODS_SERVICES_NOT_RECEIVED' });
    const amended = await client.disputes.update(filed.token, { amount: 4_000, customer_note: 'never delivered' });
    // Evidence is no part of the Dispute object: asking for an upload sends nothing.
    await client.disputes.initiateEvidenceUpload(filed.token, { filename: 'receipt.pdf' });
    const submitted = await advance(filed.token, 'SUBMITTED');
    const representment = await advance(filed.token, 'REPRESENTMENT');
    const won = await advance(filed.token, 'CASE_WON');
    const states = [filed, amended, submitted, representment, won];

    const deliveries = await eventually('a webhook for each change', async () => receiver.requestsTo('/disputes').length >= states.length && receiver.requestsTo('/disputes'));
    expect(deliveries).toHaveLength(states.length);
    for (const delivery of deliveries) expect(() => new Webhook(secret!).verify(delivery.raw, delivery.headers as Record<string, string>)).not.toThrow();

    // The Kafka feed, rendering each event's body now that the case is won, gives each change's own bytes.
    const kafka = await kafkaFeedBodies(t, `dispute-${filed.token}`, 'dispute.updated', subscription.token);
    expect(kafka.size).toBe(states.length);
    const delivered = new Map(deliveries.map((delivery) => [String(delivery.headers['webhook-id']), delivery]));
    for (const [id, body] of kafka) expect(delivered.get(id)?.raw).toBe(body);

    // In the log's order, each body is the dispute as the API answered right after that change.
    const bodies = [...kafka.keys()].map((id) => delivered.get(id)!.body as DisputeUpdatedWebhookEvent);
    const expected: DisputeUpdatedWebhookEvent[] = states.map((state) => ({ event_type: 'dispute.updated', ...state }));
    expect(bodies).toEqual(expected);
    expect(bodies.map((body) => [body.status, body.amount])).toEqual([['NEW', 3_000], ['NEW', 4_000], ['SUBMITTED', 4_000], ['REPRESENTMENT', 4_000], ['CASE_WON', 4_000]]);
    expect(bodies[4]).toMatchObject({ resolution_reason: 'WON_FIRST_CHARGEBACK', resolution_date: expect.any(String), representment_date: expect.any(String) });

    const feed = [];
    for await (const event of client.events.list({ event_types: ['dispute.updated'] })) feed.push(event);
    expect(feed.map((event) => (event as unknown as { payload: unknown }).payload)).toEqual(expect.arrayContaining(bodies));
    expect(feed).toHaveLength(states.length);
  });
});
