import { applyDecorators, Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse, type ApiPropertyOptions } from '@nestjs/swagger';
import type {
  AccountResponse,
  AccountSpendLimitsResponse,
  TransactionEventAmountsResponse,
  CardResponse,
  CardSpendLimitsResponse,
  ErrorBody,
  EventSubscriptionResponse,
  FundingSourceResponse,
  MerchantResponse,
  MoneyAmount,
  PosResponse,
  SimulationResponse,
  TransactionAmountsResponse,
  TransactionEventResponse,
  TransactionResponse,
  WebhookAttemptError,
  WebhookAttemptResponse,
  WebhookMessageResponse,
} from '@ledger/contracts';
import { WEBHOOK_ATTEMPT_ERRORS, WEBHOOK_ATTEMPT_STATUSES, type WebhookAttemptStatus } from '@ledger/contracts';
import { CARD_STATES, CARD_TYPES, DETAILED_RESULTS, PROGRAM_STATES, SPEND_LIMIT_DURATIONS, TRANSACTION_EVENT_TYPES, TRANSACTION_RESULTS, TRANSACTION_STATUSES } from '@ledger/domain';
import type { AuditedEvent } from '../audit/stream-events';
import type { ConsistencyResponse, EventProofResponse } from '../audit/ledger-commitment';
import type { ExportedEvent, SignedDigest } from '@ledger/ledger-proof';
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

/** A field Lithic's objects carry that this service has nothing for: always null here, said why. */
const AlwaysNull = (why: string, type: 'string' | 'integer' | 'object' = 'string') =>
  ApiProperty({ description: `Always null here: ${why}`, nullable: true, ...(type === 'object' ? { type, additionalProperties: true } : { type }) } as ApiPropertyOptions);

export class CardModel implements CardResponse {
  @ApiProperty({ format: 'uuid', description: 'Lithic: the account the card belongs to; here the program' }) account_token!: string;
  @ApiProperty({ format: 'uuid', description: 'Lithic: the card program; here the program' }) card_program_token!: string;
  @ApiProperty({ enum: ['OK', 'BLOCKED', 'NOT_SET'], description: 'OK when the card has a PIN, else NOT_SET; BLOCKED never occurs here' }) pin_status!: 'OK' | 'BLOCKED' | 'NOT_SET';
  @ApiProperty({ type: [String], description: 'Always empty: no auth rules here' }) auth_rule_tokens!: string[];
  @ApiProperty({ example: 'USD' }) cardholder_currency!: string;
  @ApiProperty({ type: [String], description: 'Always empty: no physical-card commands here' }) pending_commands!: string[];
  @AlwaysNull('no bulk orders (physical cards)') bulk_order_token!: null;
  @AlwaysNull('no digital card art') digital_card_art_token!: null;
  @AlwaysNull('no network programs') network_program_token!: null;
  @AlwaysNull('no physical card products') product_id!: null;
  @AlwaysNull('no reissued cards') replacement_for!: null;
  @AlwaysNull('no card substatus') substatus!: null;
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

export class TransactionCardModel extends CardModel {}

/** One figure per window; only the card's own duration is present. */
export class SpendLimitFiguresModel {
  @ApiPropertyOptional({ type: 'integer' }) daily?: number;
  @ApiPropertyOptional({ type: 'integer' }) monthly?: number;
  @ApiPropertyOptional({ type: 'integer' }) annually?: number;
  @ApiPropertyOptional({ type: 'integer' }) forever?: number;
}

export class SpendVelocityModel {
  @ApiPropertyOptional({ type: 'integer', format: 'int64' }) daily?: bigint;
  @ApiPropertyOptional({ type: 'integer', format: 'int64' }) monthly?: bigint;
  @ApiPropertyOptional({ type: 'integer', format: 'int64' }) annually?: bigint;
  @ApiPropertyOptional({ type: 'integer', format: 'int64' }) forever?: bigint;
}

export class CardSpendLimitsModel implements CardSpendLimitsResponse {
  @ApiProperty({ type: SpendLimitFiguresModel, description: 'Cents still available in the window; empty when the card has no window (no limit, or TRANSACTION)' })
  available_spend_limit!: SpendLimitFiguresModel;
  @ApiPropertyOptional({ type: SpendLimitFiguresModel, description: 'The configured limit' }) spend_limit?: SpendLimitFiguresModel;
  @ApiPropertyOptional({ type: SpendVelocityModel, description: 'Cents counted against the limit in the window (returns freeing earlier spend)' }) spend_velocity?: SpendVelocityModel;
}

export class MerchantModel implements MerchantResponse {
  @ApiProperty() acceptor_id!: string;
  @ApiProperty() city!: string;
  @ApiProperty({ example: 'USA' }) country!: string;
  @ApiProperty() descriptor!: string;
  @ApiProperty({ example: '5999' }) mcc!: string;
  @ApiProperty() state!: string;
  @ApiProperty({ description: 'Always empty here: simulated traffic names no acquirer' }) acquiring_institution_id!: string;
  @AlwaysNull('simulated traffic does not carry it') phone_number!: null;
  @AlwaysNull('simulated traffic does not carry it') postal_code!: null;
  @AlwaysNull('simulated traffic does not carry it') street_address!: null;
}

export class TransactionFundingModel {
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty() token!: string;
  @ApiProperty({ example: 'DEPOSITORY_CHECKING' }) type!: string;
}

export class MoneyAmountModel implements MoneyAmount {
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
}

export class CardholderAmountModel extends MoneyAmountModel {
  @ApiProperty({ example: '1.000000', description: 'Cardholder amount per merchant amount, at the authorization\'s rate' }) conversion_rate!: string;
}

export class TransactionAmountsModel implements TransactionAmountsResponse {
  @ApiProperty({ type: CardholderAmountModel, description: 'amount, in the card\'s currency' }) cardholder!: CardholderAmountModel;
  @ApiProperty({ type: MoneyAmountModel, description: 'What is held: amount while PENDING, else 0' }) hold!: MoneyAmountModel;
  @ApiProperty({ type: MoneyAmountModel, description: 'merchant_amount in merchant_currency' }) merchant!: MoneyAmountModel;
  @ApiProperty({ type: MoneyAmountModel, description: 'settled_amount' }) settlement!: MoneyAmountModel;
}

export class PosEntryModeModel {
  @ApiProperty({ example: 'UNKNOWN' }) card!: string;
  @ApiProperty({ example: 'UNKNOWN' }) cardholder!: string;
  @ApiProperty({ example: 'UNKNOWN' }) pan!: string;
  @ApiProperty() pin_entered!: boolean;
}

export class PosTerminalModel {
  @ApiProperty() attended!: boolean;
  @ApiProperty() card_retention_capable!: boolean;
  @ApiProperty() on_premise!: boolean;
  @ApiProperty({ example: 'UNKNOWN' }) operator!: string;
  @ApiProperty() partial_approval_capable!: boolean;
  @ApiProperty({ example: 'UNSPECIFIED' }) pin_capability!: string;
  @ApiProperty({ example: 'UNKNOWN' }) type!: string;
  @ApiProperty({ type: String, nullable: true }) acceptor_terminal_id!: string | null;
}

export class PosModel implements PosResponse {
  @ApiProperty({ type: PosEntryModeModel }) entry_mode!: PosEntryModeModel;
  @ApiProperty({ type: PosTerminalModel }) terminal!: PosTerminalModel;
}

/** Lithic's per-event amounts: the event's amount in each currency. */
export class TransactionEventAmountsModel implements TransactionEventAmountsResponse {
  @ApiProperty({ type: CardholderAmountModel, description: 'The event\'s amount in the card\'s currency' }) cardholder!: CardholderAmountModel;
  @ApiProperty({ type: MoneyAmountModel, description: 'The event\'s amount in merchant_currency, at the authorization\'s rate' }) merchant!: MoneyAmountModel;
  @ApiProperty({ type: CardholderAmountModel, nullable: true, description: 'Only for events that move funds (CLEARING, RETURN, RETURN_REVERSAL); null for authorizations, advices and voids' })
  settlement!: CardholderAmountModel | null;
}

export class TransactionEventModel implements TransactionEventResponse {
  @ApiProperty({ type: 'integer', description: 'Always positive' }) amount!: number;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ enum: TRANSACTION_RESULTS, description: 'APPROVED or the decline reason' }) result!: string;
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ enum: TRANSACTION_EVENT_TYPES }) type!: string;
  @ApiProperty({ type: TransactionEventAmountsModel }) amounts!: TransactionEventAmountsModel;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...new Set(Object.values(DETAILED_RESULTS))] }, description: 'Lithic\'s detailed result of `result`, one value (DECLINED where Lithic has none of the same meaning)' })
  detailed_results!: string[];
  @ApiProperty({ enum: ['CREDIT', 'DEBIT'], description: 'CREDIT for VOID and RETURN, else DEBIT' }) effective_polarity!: 'CREDIT' | 'DEBIT';
  @AlwaysNull('no card network carried simulated traffic', 'object') network_info!: null;
  @ApiProperty({ type: 'array', items: { type: 'object' }, maxItems: 0, description: 'Always empty: no auth rules' }) rule_results!: never[];
}

export class TransactionModel implements TransactionResponse {
  @ApiProperty({ format: 'uuid', description: 'Lithic: the account; here the program' }) account_token!: string;
  @ApiProperty({ format: 'uuid' }) card_token!: string;
  @ApiProperty({ format: 'date-time', description: 'When the transaction last changed' }) updated!: string;
  @ApiProperty({ type: TransactionAmountsModel }) amounts!: TransactionAmountsModel;
  @ApiProperty({ type: PosModel, description: 'Simulated traffic carries no point-of-sale facts: UNKNOWN throughout' }) pos!: PosModel;
  @AlwaysNull('simulated traffic crosses no card network') network!: null;
  @AlwaysNull('no network risk scoring', 'integer') network_risk_score!: null;
  @AlwaysNull('no acquirer') acquirer_reference_number!: null;
  @AlwaysNull('no address verification', 'object') avs!: null;
  @AlwaysNull('no 3-D Secure', 'object') cardholder_authentication!: null;
  @AlwaysNull('no financial accounts') financial_account_token!: null;
  @AlwaysNull('no service location', 'object') service_location!: null;
  @AlwaysNull('no digital-wallet tokens', 'object') token_info!: null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Always empty here' }) tags!: Record<string, string>;
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
  @ApiProperty({ enum: TRANSACTION_RESULTS, description: 'APPROVED or the decline reason' }) result!: string;
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
  @ApiProperty({ type: 'integer', description: 'Cents per authorization; 0 is none' }) transaction!: number;
  @ApiProperty({ type: 'integer', description: 'Cents over the trailing week; 0 is none' }) weekly!: number;
  @ApiProperty({ type: 'integer', description: 'Cents over the trailing month; 0 is none (ours and Lithic\'s monthly)' }) monthly!: number;
  @ApiProperty({ type: 'integer', description: 'Lithic\'s daily account limit: always 0 (none) here' }) daily!: number;
  @ApiProperty({ type: 'integer', description: 'Lithic\'s lifetime account limit: always 0 (none) here' }) lifetime!: number;
}

/** Lithic's AccountSpendLimits keys here: ours (weekly) beside Lithic's (monthly); a window without a limit is absent. */
export class AccountSpendWindowsModel {
  @ApiPropertyOptional({ type: 'integer', description: 'The trailing week (ours)' }) weekly?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'The trailing month (ours and Lithic\'s)' }) monthly?: number;
}

export class AccountSpendVelocityModel {
  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'The trailing week (ours)' }) weekly?: bigint;
  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'The trailing month (ours and Lithic\'s)' }) monthly?: bigint;
}

export class AccountSpendLimitStandingModel implements AccountSpendLimitsResponse {
  @ApiProperty({ type: AccountSpendWindowsModel, description: 'What the next authorization may still spend in each window, never below 0' })
  available_spend_limit!: AccountSpendWindowsModel;
  @ApiProperty({ type: AccountSpendWindowsModel, description: 'The configured limits' }) spend_limit!: AccountSpendWindowsModel;
  @ApiProperty({ type: AccountSpendVelocityModel, description: 'Cents counted against each limit in its window (returns freeing earlier spend)' }) spend_velocity!: AccountSpendVelocityModel;
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

export class AuthorizationStreamSecretModel {
  @ApiProperty({ description: 'Signs the authorization requests (whsec_ form)' }) secret!: string;
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
  @ApiProperty({ format: 'uuid', description: 'Lithic\'s attempt token; the cursor of the attempt lists' }) token!: string;
  @ApiProperty({ format: 'uuid', description: 'The ledger event the message carries' }) event_token!: string;
  @ApiProperty({ description: 'The receiver\'s body is not kept: always ""' }) response!: string;
  @ApiProperty({ type: 'integer', description: 'The receiver\'s HTTP status; 0 when no answer came' }) response_status_code!: number;
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

export class AuditedEventModel implements AuditedEvent {
  @ApiProperty() stream_id!: string;
  @ApiProperty({ type: 'integer' }) stream_version!: number;
  @ApiProperty() position!: string;
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ type: 'integer' }) schema_version!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The stored data, except that each secret field (panEncrypted, panHash, pinHash, ...) holds {"redacted": true, "sha256": <hex SHA-256 of the stored value as canonical JSON>}; the hash chain is over the stored values (docs/decisions.md, "Secrets at the edges")',
  })
  data!: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) recorded_at!: string;
}

const HEX_HASH = { pattern: '^[0-9a-f]{64}$', description: 'SHA-256, lower-case hex' };

export class SignedDigestModel implements SignedDigest {
  @ApiProperty({ type: 'integer', description: 'How many events the digest covers: leaves 0..tree_size-1 in global-position order' }) tree_size!: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'Global position of the last covered event; null for an empty log' }) position!: string | null;
  @ApiProperty({ ...HEX_HASH, description: 'RFC 9162 Merkle tree head over the covered events (docs/audit.md)' }) root!: string;
  @ApiProperty({ format: 'date-time' }) signed_at!: string;
  @ApiProperty({ pattern: '^[0-9a-f]{16}$', description: 'First 16 hex digits of SHA-256 of the raw Ed25519 public key' }) key_id!: string;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'Raw Ed25519 public key, hex: pin it out of band, do not trust it from the digest itself' }) public_key!: string;
  @ApiProperty({ pattern: '^[0-9a-f]{128}$', description: 'Ed25519 signature of the digest\'s signing bytes (docs/audit.md)' }) signature!: string;
}

export class ProvenEventModel implements ExportedEvent {
  @ApiProperty() stream_id!: string;
  @ApiProperty({ type: 'integer' }) stream_version!: number;
  @ApiProperty() position!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ type: 'integer' }) schema_version!: number;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'As in the audited events: secret fields redacted to their SHA-256, which is also what the leaf commits to' }) data!: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: ExportedEvent['metadata'];
  @ApiProperty({ format: 'date-time' }) recorded_at!: string;
}

export class EventProofModel implements EventProofResponse {
  @ApiProperty({ type: ProvenEventModel }) event!: ProvenEventModel;
  @ApiProperty({ ...HEX_HASH, description: 'SHA-256(0x00 || leaf bytes of the event): recompute it from event' }) leaf_hash!: string;
  @ApiProperty({ type: 'integer', description: 'The event\'s index in the log (0-based, global-position order)' }) leaf_index!: number;
  @ApiProperty({ type: 'integer' }) tree_size!: number;
  @ApiProperty({ type: [String], description: 'RFC 9162 inclusion proof, leaf side first, hex' }) audit_path!: string[];
  @ApiProperty({ ...HEX_HASH, description: 'Root of the tree of tree_size events: the saved digest\'s root must be this' }) root!: string;
}

export class ConsistencyProofModel implements ConsistencyResponse {
  @ApiProperty({ type: 'integer' }) from!: number;
  @ApiProperty({ type: 'integer' }) to!: number;
  @ApiProperty(HEX_HASH) from_root!: string;
  @ApiProperty(HEX_HASH) to_root!: string;
  @ApiProperty({ type: [String], description: 'RFC 9162 consistency proof, hex' }) proof!: string[];
}

/** Totals are sums over any number of transactions: int64 JSON integers that may pass 2^53, written exactly. */
const ApiTotalProperty = (meaning: string) =>
  ApiProperty({
    type: 'integer',
    format: 'int64',
    description: `${meaning}, in cents. An exact int64 that may exceed 2^53 (9007199254740992): parse it with a big-integer-aware JSON reader, or lose the last digits`,
  });

export class BalanceModel implements BalanceResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiTotalProperty('Sum of the amounts of PENDING transactions') pending!: bigint;
  @ApiTotalProperty('Sum of the settled amounts of SETTLING and SETTLED transactions (returns negative)') settled!: bigint;
  @ApiTotalProperty('Of settled, the SETTLED part') settlement_complete!: bigint;
  @ApiTotalProperty('Sum of the settled amounts of BOUNCED transactions') bounced!: bigint;
}

/** `{ data: [...] }`, the envelope of the unpaged lists. */
function listOf<T>(model: Type<T>, name: string): Type<{ data: T[] }> {
  class List {
    @ApiProperty({ type: [model] }) data!: T[];
  }
  Object.defineProperty(List, 'name', { value: name });
  return List;
}

/**
 * The page envelope every paged list answers: the spec's (spec 4.8) when paged by `page`, Lithic's
 * `{data, has_more}` alone when paged by `starting_after`/`ending_before`.
 */
function pageOf<T>(model: Type<T>, name: string): Type<{ data: T[]; has_more: boolean; page?: number; total_entries?: number; total_pages?: number }> {
  class Paged {
    @ApiProperty({ type: [model] }) data!: T[];
    @ApiProperty({ description: 'Items follow this page in the list order' }) has_more!: boolean;
    @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Absent on a cursor page' }) page?: number;
    @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Absent on a cursor page' }) total_entries?: number;
    @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Absent on a cursor page' }) total_pages?: number;
  }
  Object.defineProperty(Paged, 'name', { value: name });
  return Paged;
}

/** Lithic's Event: GET /v1/events/{event_token}, and each message of the event stream. */
export class EventModel {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ enum: ['card.created', 'card.updated', 'card_transaction.updated'] }) event_type!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The webhook body of the event' }) payload!: Record<string, unknown>;
}

export const CardPageModel = pageOf(CardModel, 'CardPage');
export const EventPageModel = pageOf(EventModel, 'EventPage');
export const TransactionPageModel = pageOf(TransactionModel, 'TransactionPage');
export const EventSubscriptionPageModel = pageOf(EventSubscriptionModel, 'EventSubscriptionPage');
export const WebhookMessagePageModel = pageOf(WebhookMessageModel, 'WebhookMessagePage');
export const WebhookAttemptPageModel = pageOf(WebhookAttemptModel, 'WebhookAttemptPage');
export const AccountPageModel = pageOf(AccountModel, 'AccountPage');
export const FundingSourcePageModel = pageOf(FundingSourceModel, 'FundingSourcePage');
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
