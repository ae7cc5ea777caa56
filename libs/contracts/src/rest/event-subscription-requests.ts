import { ArrayMaxSize, IsArray, IsIn, Matches } from 'class-validator';
import { NotFound, WEBHOOK_EVENT_TYPES } from '@ledger/domain';
import { WEBHOOK_MESSAGE_STATUSES, type WebhookAttemptFilter, type WebhookMessageStatus } from '../queries/event-subscription-queries';
import { TokenField } from './token-field';
import { CursorParameter } from './cursor-parameters';
import { DayOrInstantParameter } from './query-parameters';
import { PageParams } from './validation';
import { FlagField, OneOfField, TextField, UrlField, valueField } from './value-fields';

/** The webhooks a subscription wants: a list of known event types. */
function EventTypesField(options: { description?: string } = {}): PropertyDecorator {
  const message = `event_types must contain only ${WEBHOOK_EVENT_TYPES.join(', ')}`;
  return valueField({ type: [String], enum: WEBHOOK_EVENT_TYPES }, { ...options, optional: true }, [
    IsArray({ message: 'event_types must be a list' }),
    ArrayMaxSize(WEBHOOK_EVENT_TYPES.length * 4),
    IsIn(WEBHOOK_EVENT_TYPES, { each: true, message }),
  ]);
}

const DISABLED_MESSAGE = 'disabled must be true or false';
export const MAX_EVENT_SUBSCRIPTION_DESCRIPTION = 512;

/** POST /v1/event_subscriptions. An empty or absent event_types list subscribes to every type. */
export class CreateEventSubscriptionRequest {
  @UrlField()
  url!: string;

  @TextField(MAX_EVENT_SUBSCRIPTION_DESCRIPTION, { optional: true })
  description?: string;

  @EventTypesField({ description: 'Empty or absent: every type' })
  event_types?: string[];

  @FlagField({ optional: true, message: DISABLED_MESSAGE })
  disabled?: boolean;
}

/** PATCH /v1/event_subscriptions/{event_subscription_token}: only the fields given change. */
export class UpdateEventSubscriptionRequest {
  @UrlField({ optional: true })
  url?: string;

  @TextField(MAX_EVENT_SUBSCRIPTION_DESCRIPTION, { optional: true })
  description?: string;

  @EventTypesField()
  event_types?: string[];

  @FlagField({ optional: true, message: DISABLED_MESSAGE })
  disabled?: boolean;
}

export class EventSubscriptionTokenParam {
  @TokenField()
  event_subscription_token!: string;
}

/** Message ids are name-based (version 5) UUIDs, so any UUID form is accepted here. */
export const ANY_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function MessageTokenField(): PropertyDecorator {
  return valueField({ type: 'string', format: 'uuid' }, {}, [Matches(ANY_UUID, { message: 'message_token must be a 36-character UUID' })]);
}

export class WebhookMessageParams {
  @TokenField()
  event_subscription_token!: string;

  @MessageTokenField()
  message_token!: string;
}

/** Lithic's MessageAttempt status. An attempt is logged once it has ended, so PENDING and SENDING never occur. */
export const WEBHOOK_ATTEMPT_STATUSES = ['FAILED', 'PENDING', 'SENDING', 'SUCCESS'] as const;
export type WebhookAttemptStatus = (typeof WEBHOOK_ATTEMPT_STATUSES)[number];

/** Lithic's listAttempts parameters: cursors (attempt tokens), begin/end on when the attempt was made, status. */
export class ListWebhookAttemptsParams extends PageParams {
  @CursorParameter({ anyUuid: true })
  starting_after?: string;

  @CursorParameter({ anyUuid: true })
  ending_before?: string;

  @DayOrInstantParameter({ description: 'Attempts made at or after this instant, or on or after this day (YYYY-MM-DD: its UTC midnight)' })
  begin?: Date;

  @DayOrInstantParameter({ description: 'Attempts made before this instant, or before this day (YYYY-MM-DD: its UTC midnight)' })
  end?: Date;

  @OneOfField(WEBHOOK_ATTEMPT_STATUSES, { optional: true, description: 'SUCCESS: a 2xx answer; FAILED: any other outcome. PENDING and SENDING match nothing (attempts are logged once ended).' })
  status?: WebhookAttemptStatus;
}

/** The attempt filter a list-attempts request asks for. */
export function attemptFilterOf(params: ListWebhookAttemptsParams): WebhookAttemptFilter {
  return { status: params.status, createdFrom: params.begin, createdBefore: params.end };
}

export class ListWebhookMessagesParams extends PageParams {
  @CursorParameter({ anyUuid: true })
  starting_after?: string;

  @CursorParameter({ anyUuid: true })
  ending_before?: string;

  @OneOfField(WEBHOOK_MESSAGE_STATUSES, { optional: true })
  status?: WebhookMessageStatus;
}

/**
 * Why an attempt did not deliver, as the program sees it: the class only. The errno, address and port
 * are in the server log: shown here they would tell a program what listens where inside our network.
 * `http_status`: the receiver answered other than 2xx (`response_status` says what; a 3xx too, as
 * redirects are not followed). `connection_failed`: no connection or no whole answer (refused, reset,
 * unresolvable name, TLS failure). `timeout`: no answer in time. `refused_by_egress_policy`: the URL
 * leads where this service does not call (an internal address, at the time of the attempt).
 */
export const WEBHOOK_ATTEMPT_ERRORS = ['http_status', 'connection_failed', 'timeout', 'refused_by_egress_policy'] as const;
export type WebhookAttemptError = (typeof WEBHOOK_ATTEMPT_ERRORS)[number];

/** A message id the subscription does not have (or a subscription of another program). */
export class WebhookMessageNotFound extends NotFound {
  static override readonly code = 'webhook_message_not_found';
  constructor(readonly messageId: string) {
    super(`Message ${messageId} not found`, 'message_token');
  }
}

/** recover and replay_missing: the messages (events) created in [begin, end); either bound may be left out. */
export class RedeliveryRangeParams {
  @DayOrInstantParameter({ description: 'Created at or after this instant, or on or after this day (YYYY-MM-DD: its UTC midnight)' })
  begin?: Date;

  @DayOrInstantParameter({ description: 'Created before this instant, or before this day (YYYY-MM-DD: its UTC midnight)' })
  end?: Date;
}

/** POST /v1/simulate/event_subscriptions/{event_subscription_token}/send_example. */
export class SendExampleRequest {
  @OneOfField(WEBHOOK_EVENT_TYPES, { optional: true, description: 'Absent: card.created' })
  event_type?: string;
}
