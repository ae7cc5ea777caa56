import Lithic from 'lithic';
import type { ThreeDSAuthenticationCreatedWebhookEvent, ThreeDSAuthenticationUpdatedWebhookEvent } from 'lithic/resources/webhooks';
import { Webhook } from 'standardwebhooks';
import { eventually, LocalReceiver } from '@ledger/test-support';
import { ledgerForTests } from './test-ledger';

/**
 * Lithic's `three_ds_authentication.created` and `.updated`: a simulated authentication goes out when
 * it is made and again when its challenge is answered, signed the standard-webhooks way (checked with
 * the standardwebhooks library), each carrying the authentication as retrieve showed it then, typed
 * with the SDK's webhook types.
 */

const FAST_WEBHOOKS = { WEBHOOK_RETRY_SCHEDULE: '0,200ms', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' };
const challengingShop = { id: 'OODKZAPJVN4YS7O', country: 'USA', mcc: '5812', name: 'CHALLENGE COFFEE' };

describe('the lithic SDK: 3DS authentications as webhooks', () => {
  const t = ledgerForTests(FAST_WEBHOOKS);
  const receiver = new LocalReceiver(() => ({ status: 200, body: {} }));
  beforeAll(() => receiver.start());
  afterAll(() => receiver.stop());

  it('sends the authentication when created and when its challenge is answered, verified by standardwebhooks, and lists both in the events feed', async () => {
    const client = new Lithic({ apiKey: t.apiKey, baseURL: t.baseUrl, maxRetries: 0 });
    const subscription = await client.events.subscriptions.create({ url: receiver.url('/three-ds'), event_types: ['three_ds_authentication.created', 'three_ds_authentication.updated'] });
    const { secret } = await client.events.subscriptions.retrieveSecret(subscription.token);
    const card = await client.cards.create({ type: 'VIRTUAL' });

    const { token } = await client.threeDS.authentication.simulate({ merchant: challengingShop, pan: card.pan!, transaction: { amount: 2_000, currency: 'USD' } });
    const pending = await client.threeDS.authentication.retrieve(token!);
    await client.threeDS.authentication.simulateOtpEntry({ token: token!, otp: '123456' });
    const authenticated = await client.threeDS.authentication.retrieve(token!);

    const deliveries = await eventually('both 3DS webhooks', async () => receiver.requestsTo('/three-ds').length >= 2 && receiver.requestsTo('/three-ds'));
    for (const delivery of deliveries) expect(() => new Webhook(secret!).verify(delivery.raw, delivery.headers as Record<string, string>)).not.toThrow();
    const created = deliveries.map((delivery) => delivery.body as ThreeDSAuthenticationCreatedWebhookEvent).find((body) => body.event_type === 'three_ds_authentication.created');
    const updated = deliveries.map((delivery) => delivery.body as ThreeDSAuthenticationUpdatedWebhookEvent).find((body) => body.event_type === 'three_ds_authentication.updated');
    expect(created).toEqual({ event_type: 'three_ds_authentication.created', ...pending });
    expect(created?.authentication_result).toBe('PENDING_CHALLENGE');
    expect(updated).toEqual({ event_type: 'three_ds_authentication.updated', ...authenticated });
    expect(updated?.challenge_metadata?.status).toBe('SUCCESS');

    const feed = [];
    for await (const event of client.events.list({ event_types: ['three_ds_authentication.created', 'three_ds_authentication.updated'] })) feed.push(event);
    expect(feed.map((event) => event.event_type).sort()).toEqual(['three_ds_authentication.created', 'three_ds_authentication.updated']);
  });
});
