import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@ledger/domain';
import { TokenField } from './token-field';
import { PagedDateRangeParams } from './validation';

const KNOWN_TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);
/** Every type written out twice over: room for any honest list. */
const MAX_EVENT_TYPES_TEXT = WEBHOOK_EVENT_TYPES.join(',').length * 2;

/**
 * The event types of a comma list (`card.created,card.updated`: what the Lithic SDK sends for an
 * array), each once, in the order given; null when the text is empty or names an unknown type.
 */
export function parseEventTypesParameter(text: unknown): WebhookEventType[] | null {
  if (typeof text !== 'string' || text === '' || text.length > MAX_EVENT_TYPES_TEXT) return null;
  const types: WebhookEventType[] = [];
  for (const name of text.split(',')) {
    if (!KNOWN_TYPES.has(name)) return null;
    if (!types.includes(name as WebhookEventType)) types.push(name as WebhookEventType);
  }
  return types;
}

/** `event_types`: a comma list of the event types we send; absent means every type. */
export function EventTypesParameter(): PropertyDecorator {
  const message = `event_types must be a comma-separated list of ${WEBHOOK_EVENT_TYPES.join(', ')}`;
  return (target, key) => {
    ApiPropertyOptional({
      type: 'string',
      // Machine-readable: the values the comma list may hold (clients and the request-contract test read it).
      'x-comma-list-of': [...WEBHOOK_EVENT_TYPES],
      description: `Comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}. Absent: every type.`,
      example: 'card.created,card.updated',
    } as ApiPropertyOptions)(target, key);
    IsOptional()(target, key);
    Transform(({ value }) => (value === undefined ? undefined : (parseEventTypesParameter(value) ?? value)))(target, key);
    ValidateBy({ name: 'eventTypesParameter', validator: { validate: (value) => Array.isArray(value), defaultMessage: () => message } })(target, key);
  };
}

/** GET /v1/events/stream. Where to resume comes in the Last-Event-ID header, as Server-Sent Events have it. */
export class EventStreamParams {
  @EventTypesParameter()
  event_types?: WebhookEventType[];
}

/** GET /v1/events: Lithic's filters (event_types, begin/end, cursors) and the spec's page/page_size. Newest first. */
export class ListEventsParams extends PagedDateRangeParams {
  @EventTypesParameter()
  event_types?: WebhookEventType[];
}

export class EventTokenParam {
  @TokenField()
  event_token!: string;
}

export class EventSubscriptionEventParams {
  @TokenField()
  event_token!: string;

  @TokenField()
  event_subscription_token!: string;
}
