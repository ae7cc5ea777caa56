import type { EventSubscriptionCreated, EventSubscriptionEvent, EventSubscriptionUpdated } from '@ledger/domain';
import type { RecordedEvent } from '@ledger/event-store';
import type { EventSubscriptionRow } from '@ledger/read-model';
import type { ProjectionRows } from './projection-rows';
import type { Projection } from './projection';

const EVENT_SUBSCRIPTION_EVENTS = [
  'EventSubscriptionCreated',
  'EventSubscriptionUpdated',
  'EventSubscriptionSecretRotated',
  'EventSubscriptionMarkedFailing',
  'EventSubscriptionRecovered',
  'EventSubscriptionDeleted',
] as const satisfies readonly EventSubscriptionEvent['type'][];

/**
 * The event_subscriptions table behind GET /v1/event_subscriptions, and what the webhook feeders and
 * the dispatcher read (url, event types, sealed secret, disabled). A deleted subscription's row goes;
 * its messages stay in the outbox, never attempted again. An event for a subscription without a row
 * changes nothing.
 */
export class EventSubscriptionProjection implements Projection<EventSubscriptionEvent['type']> {
  readonly events = EVENT_SUBSCRIPTION_EVENTS;

  need(event: EventSubscriptionEvent, rows: ProjectionRows): void {
    if (event.type !== 'EventSubscriptionCreated') rows.eventSubscriptions.need(event.data.subscriptionToken);
  }

  apply(event: EventSubscriptionEvent, recorded: RecordedEvent, rows: ProjectionRows): void {
    const token = event.data.subscriptionToken;
    const updated = new Date(recorded.metadata.occurredAt);
    if (event.type === 'EventSubscriptionCreated') {
      rows.eventSubscriptions.set(token, eventSubscriptionCreated(event, updated));
      return;
    }
    const row = rows.eventSubscriptions.get(token);
    if (row === null) return;
    rows.eventSubscriptions.set(token, event.type === 'EventSubscriptionDeleted' ? null : { ...eventSubscriptionChanged(row, event), updated });
  }
}

/** The whole row: a repeated EventSubscriptionCreated resets every column. */
export function eventSubscriptionCreated(event: EventSubscriptionCreated, updated: Date): EventSubscriptionRow {
  const { subscriptionToken, programToken, url, description, eventTypes, disabled, secretSealed, created } = event.data;
  return { token: subscriptionToken, programToken, url, description, eventTypes: [...eventTypes], disabled, failing: false, secretSealed, created: new Date(created), updated };
}

/** The columns an event on an existing subscription changes (`updated` aside). */
export function eventSubscriptionChanged(
  row: EventSubscriptionRow,
  event: Exclude<EventSubscriptionEvent, EventSubscriptionCreated | { type: 'EventSubscriptionDeleted' }>,
): EventSubscriptionRow {
  switch (event.type) {
    case 'EventSubscriptionUpdated':
      return eventSubscriptionUpdated(row, event);
    case 'EventSubscriptionSecretRotated':
      return { ...row, secretSealed: event.data.secretSealed };
    case 'EventSubscriptionMarkedFailing':
      return { ...row, failing: true };
    case 'EventSubscriptionRecovered':
      return { ...row, failing: false };
  }
}

/** The changed fields only. */
function eventSubscriptionUpdated(row: EventSubscriptionRow, event: EventSubscriptionUpdated): EventSubscriptionRow {
  const { url, description, eventTypes, disabled } = event.data;
  return {
    ...row,
    ...(url === undefined ? {} : { url }),
    ...(description === undefined ? {} : { description }),
    ...(eventTypes === undefined ? {} : { eventTypes: [...eventTypes] }),
    ...(disabled === undefined ? {} : { disabled }),
  };
}
