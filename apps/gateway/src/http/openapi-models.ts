import { applyDecorators, Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import type {
  AccountResponse,
  CardResponse,
  ErrorBody,
  EventSubscriptionResponse,
  FundingSourceResponse,
  MerchantResponse,
  SimulationResponse,
  TransactionEventResponse,
  TransactionResponse,
  WebhookAttemptResponse,
  WebhookMessageResponse,
} from '@ledger/contracts';
import { CARD_STATES, CARD_TYPES, PROGRAM_STATES, SPEND_LIMIT_DURATIONS, TRANSACTION_STATUSES } from '@ledger/domain';
import type { AuditedEvent } from '../audit/stream-events';
import type { BalanceResponse } from '../audit/balances';

/**
 * Response shapes for the OpenAPI document only. The API's answers are typed by the interfaces in
 * @ledger/contracts; each class here `implements` its interface so a field added there and missing
 * here fails the type check.
 */

export class ErrorBodyModel implements ErrorBody {
  @ApiProperty({ format: 'uuid', description: 'Quote it when reporting a problem; the log has the details under it' })
  debugging_request_id!: string;

  @ApiProperty({ example: 'type must be one of SINGLE_USE, MERCHANT_LOCKED, DIGITAL_WALLET' })
  message!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The declined transaction, on a 422 of simulated authorization' })
  token?: string;
}

export class HealthModel {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

export class EmptyModel {}

export class FundingSourceModel implements FundingSourceResponse {
  @ApiProperty() account_name!: string;
  @ApiProperty({ description: 'yyyy-MM-dd hh:mm:ss', example: '2026-11-22 10:00:00' }) created!: string;
  @ApiProperty() last_four!: string;
  @ApiProperty() nickname!: string;
  @ApiProperty({ example: 'ENABLED' }) state!: string;
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ example: 'DEPOSITORY_CHECKING' }) type!: string;
}

export class CardModel implements CardResponse {
  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00Z' }) created!: string;
  @ApiProperty({ pattern: '^\\d{3}$' }) cvv!: string;
  @ApiProperty({ type: FundingSourceModel }) funding!: FundingSourceModel;
  @ApiProperty({ pattern: '^(0[1-9]|1[0-2])$' }) exp_month!: string;
  @ApiProperty({ pattern: '^\\d{4}$' }) exp_year!: string;
  @ApiProperty() hostname!: string;
  @ApiProperty() last_four!: string;
  @ApiProperty() memo!: string;
  @ApiProperty({ pattern: '^\\d{16}$' }) pan!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Cents; 0 is no limit' }) spend_limit!: number;
  @ApiProperty({ enum: SPEND_LIMIT_DURATIONS }) spend_limit_duration!: string;
  @ApiProperty({ enum: CARD_STATES }) state!: string;
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ enum: CARD_TYPES }) type!: string;
}

export class TransactionCardModel extends CardModel {
  @ApiProperty({ type: [String] }) auth_rule_tokens!: string[];
}

export class MerchantModel implements MerchantResponse {
  @ApiProperty() acceptor_id!: string;
  @ApiProperty() city!: string;
  @ApiProperty({ example: 'USA' }) country!: string;
  @ApiProperty() descriptor!: string;
  @ApiProperty({ example: '5999' }) mcc!: string;
  @ApiProperty() state!: string;
}

export class TransactionEventModel implements TransactionEventResponse {
  @ApiProperty({ type: 'integer', description: 'Always positive' }) amount!: number;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ example: 'APPROVED' }) result!: string;
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ enum: ['AUTHORIZATION', 'AUTHORIZATION_ADVICE', 'CLEARING', 'VOID', 'RETURN'] }) type!: string;
}

export class TransactionFundingModel {
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty() token!: string;
  @ApiProperty({ example: 'DEPOSITORY_CHECKING' }) type!: string;
}

export class TransactionModel implements TransactionResponse {
  @ApiProperty({ type: 'integer' }) acquirer_fee!: number;
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ type: 'integer' }) authorization_amount!: number;
  @ApiProperty() authorization_code!: string;
  @ApiProperty({ type: TransactionCardModel }) card!: TransactionCardModel;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: [TransactionEventModel] }) events!: TransactionEventModel[];
  @ApiProperty({ type: [TransactionFundingModel] }) funding!: TransactionFundingModel[];
  @ApiProperty({ type: MerchantModel }) merchant!: MerchantModel;
  @ApiProperty({ type: 'integer' }) merchant_amount!: number;
  @ApiProperty({ type: 'integer' }) merchant_authorization_amount!: number;
  @ApiProperty({ example: 'USD' }) merchant_currency!: string;
  @ApiProperty({ example: 'APPROVED', description: 'APPROVED or the decline reason' }) result!: string;
  @ApiProperty({ type: 'integer' }) settled_amount!: number;
  @ApiProperty({ enum: TRANSACTION_STATUSES }) status!: string;
  @ApiProperty({ format: 'uuid' }) token!: string;
}

export class SimulationModel implements SimulationResponse {
  @ApiProperty({ format: 'uuid' }) debugging_request_id!: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'The transaction (authorize and return only)' }) token?: string;
}

export class SettlementModel {
  @ApiProperty({ format: 'uuid' }) debugging_request_id!: string;
  @ApiProperty({ type: [String], description: 'Transactions moved to SETTLED' }) settled!: string[];
  @ApiProperty({ type: [String], description: 'Transactions moved to BOUNCED' }) bounced!: string[];
}

export class AccountSpendLimitsModel {
  @ApiProperty({ type: 'integer' }) transaction!: number;
  @ApiProperty({ type: 'integer' }) weekly!: number;
  @ApiProperty({ type: 'integer' }) monthly!: number;
}

export class AccountVelocityLimitModel {
  @ApiProperty({ type: 'integer' }) max_authorizations!: number;
  @ApiProperty({ type: 'integer' }) window_seconds!: number;
}

export class AccountModel implements AccountResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: PROGRAM_STATES }) state!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: AccountSpendLimitsModel }) spend_limit!: AccountSpendLimitsModel;
  @ApiProperty({ type: AccountVelocityLimitModel, nullable: true }) velocity_limit!: AccountVelocityLimitModel | null;
  @ApiProperty({ type: [String] }) blocked_merchants!: string[];
}

export class AuthorizationStreamModel {
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ type: 'integer' }) timeout_ms!: number;
  @ApiProperty({ description: 'Signs the requests sent to url' }) secret!: string;
}

export class EventSubscriptionModel implements EventSubscriptionResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ type: [String] }) event_types!: string[];
  @ApiProperty() disabled!: boolean;
  @ApiProperty({ description: 'True once a message ran out of retries, until a delivery succeeds again' }) failing!: boolean;
}

export class EventSubscriptionSecretModel {
  @ApiProperty() secret!: string;
}

export class EventSubscriptionCreatedModel extends EventSubscriptionModel {
  @ApiProperty() secret!: string;
}

export class WebhookMessageModel implements WebhookMessageResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ format: 'uuid' }) event_subscription_token!: string;
  @ApiProperty() event_type!: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status!: 'pending' | 'delivered' | 'failed';
  @ApiProperty({ type: 'integer' }) attempts!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) next_attempt_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true }) last_response_status!: number | null;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) delivered_at!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The payload exactly as delivered' }) payload!: unknown;
}

export class WebhookAttemptModel implements WebhookAttemptResponse {
  @ApiProperty({ format: 'uuid' }) message_token!: string;
  @ApiProperty({ format: 'uuid' }) event_subscription_token!: string;
  @ApiProperty({ type: 'integer' }) attempt!: number;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: 'integer', nullable: true }) response_status!: number | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: 'integer' }) duration_ms!: number;
}

export class AuditedEventModel implements AuditedEvent {
  @ApiProperty() stream_id!: string;
  @ApiProperty({ type: 'integer' }) stream_version!: number;
  @ApiProperty() position!: string;
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ type: 'integer' }) schema_version!: number;
  @ApiProperty({ type: 'object', additionalProperties: true }) data!: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) recorded_at!: string;
}

export class BalanceModel implements BalanceResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ type: 'integer' }) pending!: number;
  @ApiProperty({ type: 'integer' }) settled!: number;
  @ApiProperty({ type: 'integer' }) settlement_complete!: number;
  @ApiProperty({ type: 'integer' }) bounced!: number;
}

/** `{ data: [...] }`, the envelope of the unpaged lists. */
function listOf<T>(model: Type<T>, name: string): Type<{ data: T[] }> {
  class List {
    @ApiProperty({ type: [model] }) data!: T[];
  }
  Object.defineProperty(List, 'name', { value: name });
  return List;
}

/** The page envelope both list endpoints answer (spec 4.8). */
function pageOf<T>(model: Type<T>, name: string): Type<{ data: T[]; page: number; total_entries: number; total_pages: number }> {
  class Paged {
    @ApiProperty({ type: [model] }) data!: T[];
    @ApiProperty({ type: 'integer', minimum: 1 }) page!: number;
    @ApiProperty({ type: 'integer', minimum: 0 }) total_entries!: number;
    @ApiProperty({ type: 'integer', minimum: 0 }) total_pages!: number;
  }
  Object.defineProperty(Paged, 'name', { value: name });
  return Paged;
}

export const CardPageModel = pageOf(CardModel, 'CardPage');
export const TransactionPageModel = pageOf(TransactionModel, 'TransactionPage');
export const EventSubscriptionPageModel = pageOf(EventSubscriptionModel, 'EventSubscriptionPage');
export const WebhookMessagePageModel = pageOf(WebhookMessageModel, 'WebhookMessagePage');
export const WebhookAttemptPageModel = pageOf(WebhookAttemptModel, 'WebhookAttemptPage');
export const AccountListModel = listOf(AccountModel, 'AccountList');
export const FundingSourceListModel = listOf(FundingSourceModel, 'FundingSourceList');
export const AuditedEventListModel = listOf(AuditedEventModel, 'AuditedEventList');

const ERROR_MEANINGS: Record<number, string> = {
  400: 'The request is invalid (unknown field, wrong type or format, malformed JSON); the message names the field',
  401: 'No api-key, or an unknown one',
  404: 'No such resource for the calling program',
  409: 'The request conflicts with the current state (e.g. a CLOSED card, a transaction that is no longer pending)',
  422: 'The simulated authorization was declined; the message is the decline reason and token the transaction',
  503: 'The write is recorded but the read model has not caught up in time; retry the read',
};

/** The error answers a route can give, each with the spec's error body (section 7). */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(...statuses.map((status) => ApiResponse({ status, description: ERROR_MEANINGS[status], type: ErrorBodyModel })));
}
