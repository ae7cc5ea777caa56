import { assertNever, Decider, DecisionContext } from '../core/decider';
import { Conflict, InvalidInput, NotFound } from '../core/domain-error';
import { checkedEndpointUrl } from '../core/endpoint-url';

/**
 * An event subscription: a program's webhook endpoint, the event types it wants and the secret its
 * deliveries are signed with (sealed with the card vault; the clear secret is never recorded). One
 * stream per subscription. Deliveries themselves are not events: the dispatcher only tells the
 * aggregate when a message ran out of retries (failing) and when one got through again (recovered).
 */
export const eventSubscriptionStreamId = (subscriptionToken: string): string => `event-subscription-${subscriptionToken}`;
export const EVENT_SUBSCRIPTION_STREAM_CATEGORY = 'event-subscription';

/** Webhook event types, named as Lithic names them. An empty list subscribes to all of them. */
export const WEBHOOK_EVENT_TYPES = ['card.created', 'card.updated', 'card_transaction.updated', 'card.shipped', 'card.renewed', 'card.reissued', 'card.converted', 'auth_rules.backtest_report.created', 'three_ds_authentication.created', 'three_ds_authentication.updated', 'tokenization.result', 'tokenization.updated', 'dispute.updated'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

// ---------------------------------------------------------------- events

/** What a subscription is created with: EventSubscriptionCreated records it, and the subscription's state keeps it. */
export interface EventSubscriptionSettings {
  readonly subscriptionToken: string;
  readonly programToken: string;
  readonly url: string;
  readonly description: string;
  readonly eventTypes: readonly WebhookEventType[];
  readonly disabled: boolean;
  /** The whsec_ signing secret, sealed with the card data key. */
  readonly secretSealed: string;
  readonly created: string;
}

export interface EventSubscriptionCreated {
  readonly type: 'EventSubscriptionCreated';
  readonly data: EventSubscriptionSettings;
}

/** Only the fields that changed are present. */
export interface EventSubscriptionUpdated {
  readonly type: 'EventSubscriptionUpdated';
  readonly data: {
    readonly subscriptionToken: string;
    readonly programToken: string;
    readonly url?: string;
    readonly description?: string;
    readonly eventTypes?: readonly WebhookEventType[];
    readonly disabled?: boolean;
  };
}

export interface EventSubscriptionSecretRotated {
  readonly type: 'EventSubscriptionSecretRotated';
  readonly data: { readonly subscriptionToken: string; readonly programToken: string; readonly secretSealed: string; readonly at: string };
}

export interface EventSubscriptionDeleted {
  readonly type: 'EventSubscriptionDeleted';
  readonly data: { readonly subscriptionToken: string; readonly programToken: string; readonly at: string };
}

/** A message ran through its whole retry schedule without a 2xx answer. */
export interface EventSubscriptionMarkedFailing {
  readonly type: 'EventSubscriptionMarkedFailing';
  readonly data: { readonly subscriptionToken: string; readonly programToken: string; readonly messageId: string; readonly at: string };
}

/** A delivery to a failing subscription got a 2xx answer. */
export interface EventSubscriptionRecovered {
  readonly type: 'EventSubscriptionRecovered';
  readonly data: { readonly subscriptionToken: string; readonly programToken: string; readonly messageId: string; readonly at: string };
}

export type EventSubscriptionEvent =
  | EventSubscriptionCreated
  | EventSubscriptionUpdated
  | EventSubscriptionSecretRotated
  | EventSubscriptionDeleted
  | EventSubscriptionMarkedFailing
  | EventSubscriptionRecovered;

// ---------------------------------------------------------------- state

export type EventSubscription =
  | { readonly status: 'absent' }
  | (EventSubscriptionSettings & { readonly status: 'active'; readonly failing: boolean })
  | { readonly status: 'deleted'; readonly subscriptionToken: string; readonly programToken: string };

export type ExistingEventSubscription = Extract<EventSubscription, { status: 'active' }>;

// ---------------------------------------------------------------- commands

export interface CreateEventSubscription {
  readonly type: 'CreateEventSubscription';
  readonly subscriptionToken: string;
  readonly programToken: string;
  readonly url: string;
  readonly description?: string;
  readonly eventTypes?: readonly string[];
  readonly disabled?: boolean;
  readonly secretSealed: string;
}

export interface UpdateEventSubscription {
  readonly type: 'UpdateEventSubscription';
  readonly subscriptionToken: string;
  readonly programToken: string;
  readonly url?: string;
  readonly description?: string;
  readonly eventTypes?: readonly string[];
  readonly disabled?: boolean;
}

export interface RotateEventSubscriptionSecret {
  readonly type: 'RotateEventSubscriptionSecret';
  readonly subscriptionToken: string;
  readonly programToken: string;
  readonly newSecretSealed: string;
}

export interface DeleteEventSubscription {
  readonly type: 'DeleteEventSubscription';
  readonly subscriptionToken: string;
  readonly programToken: string;
}

/** From the dispatcher; a no-op on a subscription already failing, deleted or gone. */
export interface MarkEventSubscriptionFailing {
  readonly type: 'MarkEventSubscriptionFailing';
  readonly subscriptionToken: string;
  readonly programToken: string;
  readonly messageId: string;
}

/** From the dispatcher; a no-op on a subscription that is not failing. */
export interface MarkEventSubscriptionRecovered {
  readonly type: 'MarkEventSubscriptionRecovered';
  readonly subscriptionToken: string;
  readonly programToken: string;
  readonly messageId: string;
}

export type EventSubscriptionCommand =
  | CreateEventSubscription
  | UpdateEventSubscription
  | RotateEventSubscriptionSecret
  | DeleteEventSubscription
  | MarkEventSubscriptionFailing
  | MarkEventSubscriptionRecovered;

// ---------------------------------------------------------------- errors

/** Unknown, deleted, or another program's: all answer the same, so tokens of others stay unseen. */
export class EventSubscriptionNotFound extends NotFound {
  static override readonly code = 'event_subscription_not_found';
  constructor(readonly subscriptionToken: string) {
    super(`Event subscription ${subscriptionToken} not found`, 'event_subscription_token');
  }
}

export class EventSubscriptionAlreadyExists extends Conflict {
  static override readonly code = 'event_subscription_already_exists';
  constructor(readonly subscriptionToken: string) {
    super(`Event subscription ${subscriptionToken} already exists`);
  }
}

export class UnknownWebhookEventType extends InvalidInput {
  static override readonly code = 'unknown_webhook_event_type';
  constructor(eventType: string) {
    super(`event_types must contain only ${WEBHOOK_EVENT_TYPES.join(', ')}; got ${eventType}`, 'event_types');
  }
}

// ---------------------------------------------------------------- rules

const KNOWN_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

/** Known types only, each once, in the order first given. */
export function normalizeEventTypes(eventTypes: readonly string[]): WebhookEventType[] {
  const seen: WebhookEventType[] = [];
  for (const eventType of eventTypes) {
    if (!KNOWN_TYPES.has(eventType)) throw new UnknownWebhookEventType(eventType);
    if (!seen.includes(eventType as WebhookEventType)) seen.push(eventType as WebhookEventType);
  }
  return seen;
}

/**
 * Whether a subscription gets a message for an event: one of its own program's, of a type it wants,
 * that happened no earlier than the subscription was created (a new subscription never receives
 * history). Both feeds of the webhook outbox ask this.
 */
export function receivesEvent(
  subscription: { readonly programToken: string; readonly eventTypes: readonly string[]; readonly created: Date },
  event: { readonly programToken: string; readonly eventType: WebhookEventType; readonly occurredAt: Date },
): boolean {
  return subscription.programToken === event.programToken && subscription.created.getTime() <= event.occurredAt.getTime() && subscribesTo(subscription.eventTypes, event.eventType);
}

/** Whether a subscription with these types wants a message of this type (an empty list wants all). */
export function subscribesTo(eventTypes: readonly string[], eventType: WebhookEventType): boolean {
  return eventTypes.length === 0 || eventTypes.includes(eventType);
}

const sameTypes = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((type, i) => type === b[i]);

/** The subscription if it exists, is not deleted and belongs to the caller's program. */
function owned(subscription: EventSubscription, command: { subscriptionToken: string; programToken: string }): ExistingEventSubscription {
  if (subscription.status !== 'active' || subscription.programToken !== command.programToken) throw new EventSubscriptionNotFound(command.subscriptionToken);
  return subscription;
}

// ---------------------------------------------------------------- decide

export function decideEventSubscription(command: EventSubscriptionCommand, subscription: EventSubscription, { now }: DecisionContext): EventSubscriptionEvent[] {
  const at = now.toISOString();
  const { subscriptionToken, programToken } = command;
  switch (command.type) {
    case 'CreateEventSubscription': {
      if (subscription.status !== 'absent') throw new EventSubscriptionAlreadyExists(subscriptionToken);
      return [
        {
          type: 'EventSubscriptionCreated',
          data: {
            subscriptionToken,
            programToken,
            url: checkedEndpointUrl(command.url),
            description: command.description ?? '',
            eventTypes: normalizeEventTypes(command.eventTypes ?? []),
            disabled: command.disabled ?? false,
            secretSealed: command.secretSealed,
            created: at,
          },
        },
      ];
    }
    case 'UpdateEventSubscription': {
      const current = owned(subscription, command);
      const url = command.url === undefined ? undefined : checkedEndpointUrl(command.url);
      const eventTypes = command.eventTypes === undefined ? undefined : normalizeEventTypes(command.eventTypes);
      const changes = {
        ...(url !== undefined && url !== current.url ? { url } : {}),
        ...(command.description !== undefined && command.description !== current.description ? { description: command.description } : {}),
        ...(eventTypes !== undefined && !sameTypes(eventTypes, current.eventTypes) ? { eventTypes } : {}),
        ...(command.disabled !== undefined && command.disabled !== current.disabled ? { disabled: command.disabled } : {}),
      };
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'EventSubscriptionUpdated', data: { subscriptionToken, programToken, ...changes } }];
    }
    case 'RotateEventSubscriptionSecret':
      owned(subscription, command);
      return [{ type: 'EventSubscriptionSecretRotated', data: { subscriptionToken, programToken, secretSealed: command.newSecretSealed, at } }];
    case 'DeleteEventSubscription':
      owned(subscription, command);
      return [{ type: 'EventSubscriptionDeleted', data: { subscriptionToken, programToken, at } }];
    case 'MarkEventSubscriptionFailing':
      if (subscription.status !== 'active' || subscription.programToken !== programToken || subscription.failing) return [];
      return [{ type: 'EventSubscriptionMarkedFailing', data: { subscriptionToken, programToken, messageId: command.messageId, at } }];
    case 'MarkEventSubscriptionRecovered':
      if (subscription.status !== 'active' || subscription.programToken !== programToken || !subscription.failing) return [];
      return [{ type: 'EventSubscriptionRecovered', data: { subscriptionToken, programToken, messageId: command.messageId, at } }];
    default:
      return assertNever(command);
  }
}

// ---------------------------------------------------------------- evolve

export function evolveEventSubscription(subscription: EventSubscription, event: EventSubscriptionEvent): EventSubscription {
  switch (event.type) {
    case 'EventSubscriptionCreated': {
      const { subscriptionToken, programToken, url, description, eventTypes, disabled, secretSealed, created } = event.data;
      return { status: 'active', subscriptionToken, programToken, url, description, eventTypes, disabled, failing: false, secretSealed, created };
    }
    case 'EventSubscriptionUpdated': {
      if (subscription.status !== 'active') return subscription;
      const { subscriptionToken: _token, programToken: _program, ...changes } = event.data;
      return { ...subscription, ...changes };
    }
    case 'EventSubscriptionSecretRotated':
      return subscription.status === 'active' ? { ...subscription, secretSealed: event.data.secretSealed } : subscription;
    case 'EventSubscriptionDeleted':
      return { status: 'deleted', subscriptionToken: event.data.subscriptionToken, programToken: event.data.programToken };
    case 'EventSubscriptionMarkedFailing':
      return subscription.status === 'active' ? { ...subscription, failing: true } : subscription;
    case 'EventSubscriptionRecovered':
      return subscription.status === 'active' ? { ...subscription, failing: false } : subscription;
    default:
      return assertNever(event);
  }
}

export const eventSubscriptionDecider: Decider<EventSubscriptionCommand, EventSubscriptionEvent, EventSubscription> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideEventSubscription,
  evolve: evolveEventSubscription,
};
