import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@ledger/domain';
import type { WebhookMessageStatus } from '../queries/event-subscription-queries';
import { WEBHOOK_ATTEMPT_ERRORS, WEBHOOK_ATTEMPT_STATUSES, type WebhookAttemptError, type WebhookAttemptStatus } from './event-subscription-requests';
import { pageOf } from './responses';

/** Answers of the webhook routes: subscriptions, their messages and attempts, and the events feed (see responses.ts). */

/** Lithic's event subscription object. */
@ApiSchema({ name: 'EventSubscriptionModel' })
export class EventSubscriptionResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String] }) event_types!: string[];
  @ApiProperty() disabled!: boolean;
  @ApiProperty({ description: 'True once a message ran out of retries, until a delivery succeeds again' }) failing!: boolean;
}

@ApiSchema({ name: 'EventSubscriptionSecretModel' })
export class EventSubscriptionSecretResponse {
  @ApiProperty() secret!: string;
}

export class EventSubscriptionCreatedModel extends EventSubscriptionResponse {
  @ApiProperty() secret!: string;
}

@ApiSchema({ name: 'WebhookMessageModel' })
export class WebhookMessageResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ format: 'uuid' }) event_subscription_token!: string;
  @ApiProperty() event_type!: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status!: WebhookMessageStatus;
  @ApiProperty({ type: 'integer' }) attempts!: number;
  /** When the next attempt is due while pending; null once delivered or failed. */
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) next_attempt_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) last_response_status!: number | null;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) delivered_at!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The payload exactly as delivered' }) payload!: unknown;
}

/** Ours (message_token, attempt, response_status, error, duration_ms) and Lithic's MessageAttempt fields side by side. */
@ApiSchema({ name: 'WebhookAttemptModel' })
export class WebhookAttemptResponse {
  @ApiProperty({ format: 'uuid', description: "Lithic's attempt token; the cursor of the attempt lists" }) token!: string;
  @ApiProperty({ format: 'uuid', description: 'The ledger event the message carries' }) event_token!: string;
  @ApiProperty({ description: 'The receiver\'s body is not kept: always ""' }) response!: string;
  @ApiProperty({ type: 'integer', description: "The receiver's HTTP status; 0 when no answer came" }) response_status_code!: number;
  @ApiProperty({ enum: WEBHOOK_ATTEMPT_STATUSES, description: 'SUCCESS for a 2xx answer, else FAILED; attempts are logged once ended' }) status!: WebhookAttemptStatus;
  @ApiProperty({ format: 'uuid' }) message_token!: string;
  @ApiProperty({ format: 'uuid' }) event_subscription_token!: string;
  @ApiProperty({ type: 'integer' }) attempt!: number;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: 'integer', nullable: true }) response_status!: number | null;
  @ApiProperty({ type: String, enum: WEBHOOK_ATTEMPT_ERRORS, nullable: true, description: 'Why the attempt did not deliver (null when it did); never more than this class' })
  error!: WebhookAttemptError | null;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
}

/** Lithic's Event: GET /v1/events/{event_token}, and each message of the event stream. */
@ApiSchema({ name: 'EventModel' })
export class EventResponse {
  /** The ledger event's id. */
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPES }) event_type!: WebhookEventType;
  /** When the ledger event happened, UTC ISO 8601. */
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The webhook body of the event' }) payload!: Record<string, unknown>;
}

export const EventPageModel = pageOf(EventResponse, 'EventPage');
export const EventSubscriptionPageModel = pageOf(EventSubscriptionResponse, 'EventSubscriptionPage');
export const WebhookMessagePageModel = pageOf(WebhookMessageResponse, 'WebhookMessagePage');
export const WebhookAttemptPageModel = pageOf(WebhookAttemptResponse, 'WebhookAttemptPage');
