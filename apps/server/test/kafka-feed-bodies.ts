import { subjectTokenOf, TOPICS, webhookEventTypeOf, webhookMessageId } from '@ledger/contracts';
import type { WebhookEventType } from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import { IntegrationEnvelopes, topicFor } from '@ledger/messaging';
import type { ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, READ_MODEL } from '@ledger/runtime';
import { EventBodies, WebhookPayloads } from '@ledger/webhooks';
import type { TestLedger } from './test-ledger';

/**
 * What the Kafka feed would enqueue for one stream's webhook events of a type, by the message id each
 * gets for `subscriptionToken`: each event made into the envelope the projector's publisher sends (on the
 * programs topic), and its body rendered as the Kafka feed renders it (EventBodies, reading the store).
 * The suites compare these bytes with what the outbox path delivered, with no broker needed.
 */
export async function kafkaFeedBodies(t: TestLedger, streamId: string, wanted: WebhookEventType, subscriptionToken: string): Promise<Map<string, string>> {
  const store = t.ledger.app.get<EventStore>(EVENT_STORE);
  const bodies = new EventBodies(new WebhookPayloads(t.ledger.app.get<ReadModelClient>(READ_MODEL)), store);
  const envelopes = new IntegrationEnvelopes(store);
  const byMessage = new Map<string, string>();
  for (const recorded of await store.readStream(streamId)) {
    const envelope = await envelopes.envelopeOf(recorded);
    const eventType = webhookEventTypeOf(envelope);
    if (eventType !== wanted) continue;
    if (topicFor(recorded) !== TOPICS.programs) throw new Error(`${recorded.type} of ${streamId} is not published on the programs topic`);
    const body = await bodies.body(eventType, subjectTokenOf(envelope), { streamId: envelope.stream_id, streamVersion: envelope.stream_version });
    byMessage.set(webhookMessageId(envelope.id, subscriptionToken), JSON.stringify(body));
  }
  return byMessage;
}
