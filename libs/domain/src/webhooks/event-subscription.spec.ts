import { deciderSpecification } from '@ledger/test-support';
import { foldEvents } from '../core/decider';
import { EndpointUrlInvalid } from '../core/endpoint-url';
import {
  CreateEventSubscription,
  EventSubscriptionAlreadyExists,
  eventSubscriptionDecider,
  EventSubscriptionEvent,
  EventSubscriptionNotFound,
  eventSubscriptionStreamId,
  receivesEvent,
  subscribesTo,
  UnknownWebhookEventType,
  UpdateEventSubscription,
} from './event-subscription';
import { programToken } from '../../test/fixtures';

// ---------------------------------------------------------------- fixtures

const now = new Date('2026-11-23T08:00:00.000Z');
const at = now.toISOString();
const spec = deciderSpecification(eventSubscriptionDecider, { now });

const subscriptionToken = '0c5d8f8e-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
const otherProgram = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const messageId = '3b0e1c2d-4e5f-5a6b-8c7d-9e0f1a2b3c4d';
const ids = { subscriptionToken, programToken };

const created: EventSubscriptionEvent = {
  type: 'EventSubscriptionCreated',
  data: {
    subscriptionToken,
    programToken,
    url: 'https://hooks.example.com/ledger',
    description: 'ops',
    eventTypes: ['card.created', 'card.updated'],
    disabled: false,
    secretSealed: 'sealed-1',
    created: at,
  },
};
const updated = (changes: Omit<Extract<EventSubscriptionEvent, { type: 'EventSubscriptionUpdated' }>['data'], 'subscriptionToken' | 'programToken'>): EventSubscriptionEvent => ({
  type: 'EventSubscriptionUpdated',
  data: { ...ids, ...changes },
});
const deleted: EventSubscriptionEvent = { type: 'EventSubscriptionDeleted', data: { ...ids, at } };
const failing: EventSubscriptionEvent = { type: 'EventSubscriptionMarkedFailing', data: { ...ids, messageId, at } };
const recovered: EventSubscriptionEvent = { type: 'EventSubscriptionRecovered', data: { ...ids, messageId, at } };

const create = (overrides: Partial<CreateEventSubscription> = {}): CreateEventSubscription => ({
  type: 'CreateEventSubscription',
  ...ids,
  url: 'https://hooks.example.com/ledger',
  description: 'ops',
  eventTypes: ['card.created', 'card.updated'],
  secretSealed: 'sealed-1',
  ...overrides,
});
const update = (changes: Omit<UpdateEventSubscription, 'type' | 'subscriptionToken' | 'programToken'>, programToken_ = programToken): UpdateEventSubscription => ({
  type: 'UpdateEventSubscription',
  subscriptionToken,
  programToken: programToken_,
  ...changes,
});

// ---------------------------------------------------------------- specs

describe('event subscription aggregate', () => {
  it('lives in its own stream', () => {
    expect(eventSubscriptionStreamId(subscriptionToken)).toBe(`event-subscription-${subscriptionToken}`);
  });

  describe('create', () => {
    it('records the url, description, event types and sealed secret, enabled', () => {
      spec.given([]).when(create()).then([created]);
    });

    it('defaults to every event type, no description, enabled', () => {
      spec
        .given([])
        .when(create({ description: undefined, eventTypes: undefined }))
        .then([{ type: 'EventSubscriptionCreated', data: { ...created.data, description: '', eventTypes: [] } } as EventSubscriptionEvent]);
    });

    it('keeps each event type once, in the order given', () => {
      spec
        .given([])
        .when(create({ eventTypes: ['card_transaction.updated', 'card.created', 'card_transaction.updated'] }))
        .then([{ type: 'EventSubscriptionCreated', data: { ...created.data, eventTypes: ['card_transaction.updated', 'card.created'] } } as EventSubscriptionEvent]);
    });

    it('refuses an unknown event type, naming event_types', () => {
      spec.given([]).when(create({ eventTypes: ['card.created', 'card.deleted'] })).thenThrows(UnknownWebhookEventType, /card\.deleted/);
      expect(() => eventSubscriptionDecider.decide(create({ eventTypes: ['x'] }), { status: 'absent' }, { now })).toThrow(
        expect.objectContaining({ kind: 'invalid', field: 'event_types' }),
      );
    });

    it.each(['ftp://hooks.example.com/x', 'hooks.example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'http://', 'http://[::1/', 'http://exa mple.com/'])('refuses %j: not an http or https URL', (url) => {
      spec.given([]).when(create({ url })).thenThrows(EndpointUrlInvalid, 'url must be an http or https URL');
    });

    it.each(['http://user:pass@127.0.0.1:6379/', 'https://user@hooks.example.com/', 'https://:secret@hooks.example.com/', 'https://a%40b:c@hooks.example.com/'])('refuses %j: credentials', (url) => {
      spec.given([]).when(create({ url })).thenThrows(EndpointUrlInvalid, 'url must not carry credentials (user:password@)');
    });

    it('refuses a second create of the same token', () => {
      spec.given([created]).when(create()).thenThrows(EventSubscriptionAlreadyExists);
    });

    it('can start disabled', () => {
      spec
        .given([])
        .when(create({ disabled: true }))
        .then([{ type: 'EventSubscriptionCreated', data: { ...created.data, disabled: true } } as EventSubscriptionEvent]);
    });
  });

  describe('update', () => {
    it('records only what changed', () => {
      spec
        .given([created])
        .when(update({ url: 'https://hooks.example.com/v2', description: 'ops', eventTypes: ['card.created', 'card.updated'], disabled: true }))
        .then([updated({ url: 'https://hooks.example.com/v2', disabled: true })]);
    });

    it('records nothing when nothing changes', () => {
      spec.given([created]).when(update({ description: 'ops', disabled: false })).then([]);
      spec.given([created]).when(update({})).then([]);
    });

    it('records a new list of event types; an empty list means all', () => {
      spec.given([created]).when(update({ eventTypes: [] })).then([updated({ eventTypes: [] })]);
    });

    it('validates the new url and event types', () => {
      spec.given([created]).when(update({ url: 'mailto:ops@example.com' })).thenThrows(EndpointUrlInvalid);
      spec.given([created]).when(update({ url: 'https://ops:pw@hooks.example.com/' })).thenThrows(EndpointUrlInvalid, /credentials/);
      spec.given([created]).when(update({ eventTypes: ['transfer.created'] })).thenThrows(UnknownWebhookEventType);
    });

    it("answers not found for another program's subscription, an unknown one and a deleted one", () => {
      spec.given([created]).when(update({ disabled: true }, otherProgram)).thenThrows(EventSubscriptionNotFound);
      spec.given([]).when(update({ disabled: true })).thenThrows(EventSubscriptionNotFound);
      spec.given([created, deleted]).when(update({ disabled: true })).thenThrows(EventSubscriptionNotFound, `Event subscription ${subscriptionToken} not found`);
    });
  });

  describe('secret', () => {
    it('rotates to a new sealed secret', () => {
      spec
        .given([created])
        .when({ type: 'RotateEventSubscriptionSecret', ...ids, newSecretSealed: 'sealed-2' })
        .then([{ type: 'EventSubscriptionSecretRotated', data: { ...ids, secretSealed: 'sealed-2', at } }]);
    });

    it('keeps the rotated secret in the state', () => {
      const state = foldEvents(eventSubscriptionDecider, [created, { type: 'EventSubscriptionSecretRotated', data: { ...ids, secretSealed: 'sealed-2', at } }]);
      expect(state).toMatchObject({ status: 'active', secretSealed: 'sealed-2' });
    });

    it("refuses to rotate another program's secret", () => {
      spec.given([created]).when({ type: 'RotateEventSubscriptionSecret', subscriptionToken, programToken: otherProgram, newSecretSealed: 's' }).thenThrows(EventSubscriptionNotFound);
    });
  });

  describe('delete', () => {
    it('deletes, once', () => {
      spec.given([created]).when({ type: 'DeleteEventSubscription', ...ids }).then([deleted]);
      spec.given([created, deleted]).when({ type: 'DeleteEventSubscription', ...ids }).thenThrows(EventSubscriptionNotFound);
    });

    it("refuses to delete another program's subscription", () => {
      spec.given([created]).when({ type: 'DeleteEventSubscription', subscriptionToken, programToken: otherProgram }).thenThrows(EventSubscriptionNotFound);
    });
  });

  describe('failing and recovered', () => {
    const markFailing = { type: 'MarkEventSubscriptionFailing', ...ids, messageId } as const;
    const markRecovered = { type: 'MarkEventSubscriptionRecovered', ...ids, messageId } as const;

    it('is marked failing when a message ran out of retries, once', () => {
      spec.given([created]).when(markFailing).then([failing]);
      spec.given([created, failing]).when(markFailing).then([]);
    });

    it('recovers when a delivery succeeds again, and only when failing', () => {
      spec.given([created, failing]).when(markRecovered).then([recovered]);
      spec.given([created]).when(markRecovered).then([]);
      spec.given([created, failing, recovered]).when(markRecovered).then([]);
    });

    it('ignores the dispatcher for a deleted or unknown subscription (a late delivery is no error)', () => {
      spec.given([created, deleted]).when(markFailing).then([]);
      spec.given([]).when(markFailing).then([]);
      spec.given([created, failing, deleted]).when(markRecovered).then([]);
    });

    it('folds failing and recovered into the state', () => {
      expect(foldEvents(eventSubscriptionDecider, [created, failing])).toMatchObject({ failing: true });
      expect(foldEvents(eventSubscriptionDecider, [created, failing, recovered])).toMatchObject({ failing: false });
    });
  });

  describe('state', () => {
    it('folds creation and updates into the subscription', () => {
      expect(foldEvents(eventSubscriptionDecider, [created, updated({ url: 'https://b.example.com/h', eventTypes: [], disabled: true })])).toEqual({
        status: 'active',
        subscriptionToken,
        programToken,
        url: 'https://b.example.com/h',
        description: 'ops',
        eventTypes: [],
        disabled: true,
        failing: false,
        secretSealed: 'sealed-1',
        created: at,
      });
    });

    it('is deleted after a delete', () => {
      expect(foldEvents(eventSubscriptionDecider, [created, deleted])).toEqual({ status: 'deleted', subscriptionToken, programToken });
    });
  });

  describe('subscribesTo', () => {
    it('wants every type with an empty list, and only the listed ones otherwise', () => {
      expect(subscribesTo([], 'card_transaction.updated')).toBe(true);
      expect(subscribesTo(['card.created'], 'card.created')).toBe(true);
      expect(subscribesTo(['card.created'], 'card.updated')).toBe(false);
    });
  });

  describe('receivesEvent', () => {
    const subscription = { programToken: 'program-a', eventTypes: ['card.created'], created: new Date('2026-11-27T10:00:00.000Z') };
    const event = { programToken: 'program-a', eventType: 'card.created' as const, occurredAt: new Date('2026-11-27T10:00:00.000Z') };

    it('takes an event of its program and type that happened when it was created or later', () => {
      expect(receivesEvent(subscription, event)).toBe(true);
      expect(receivesEvent(subscription, { ...event, occurredAt: new Date('2026-11-27T10:00:00.001Z') })).toBe(true);
    });

    it('refuses history, another program and an unwanted type', () => {
      expect(receivesEvent(subscription, { ...event, occurredAt: new Date('2026-11-27T09:59:59.999Z') })).toBe(false);
      expect(receivesEvent(subscription, { ...event, programToken: 'program-b' })).toBe(false);
      expect(receivesEvent(subscription, { ...event, eventType: 'card.updated' })).toBe(false);
    });
  });
});
