import type { Type } from '@nestjs/common';
import { CardholderAuthenticationResponse } from './three-ds-responses';
import { TokenInfoResponse } from './token-info-response';
import { ApiProperty, ApiPropertyOptional, ApiSchema, type ApiPropertyOptions } from '@nestjs/swagger';
import { ACCOUNT_LIMIT_DETAILED_RESULTS, AUTH_RULE_DETAILED_RESULTS, CARD_STATES, CARD_TYPES, DETAILED_RESULTS, SPEND_LIMIT_DURATIONS, TRANSACTION_EVENT_TYPES, TRANSACTION_RESULTS, TRANSACTION_STATUSES } from '@ledger/domain';

/**
 * Response shapes of the REST API, as the spec names their fields: each class is both the
 * TypeScript type the code answers with and, through its decorators, the schema of the OpenAPI
 * document, so a field cannot be in one and missing from the other. `@ApiSchema({ name })` keeps the
 * schema names the document has always published.
 */

/** Every error answer; spec section 7's 422 shape, used for every status. */
@ApiSchema({ name: 'ErrorBodyModel' })
export class ErrorBody {
  @ApiProperty({ format: 'uuid', description: 'Quote it when reporting a problem; the log has the details under it' })
  debugging_request_id!: string;

  @ApiProperty({ example: 'type must be one of SINGLE_USE, MERCHANT_LOCKED, DIGITAL_WALLET' })
  message!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The declined transaction, on a 422 of simulated authorization' })
  token?: string;
}

/** The answer of a route that has nothing to say but 200. */
export class EmptyModel {}

@ApiSchema({ name: 'FundingSourceModel' })
export class FundingSourceResponse {
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

/** PIN states of Lithic's cards; BLOCKED never occurs here (failed PINs are not counted). */
export type PinStatus = 'OK' | 'BLOCKED' | 'NOT_SET';

/**
 * Fields Lithic's card carries beyond the spec's (the SDK's NonPCICard). A program is both the
 * account its cards belong to and the card program they are issued on; the rest is what a sandbox
 * card of a program without physical cards, art or auth rules shows (docs/decisions.md).
 */
export class LithicCardFields {
  @ApiProperty({ format: 'uuid', description: 'Lithic: the account the card belongs to; here the program' }) account_token!: string;
  @ApiProperty({ format: 'uuid', description: 'Lithic: the card program; here the program' }) card_program_token!: string;
  @ApiProperty({ enum: ['OK', 'BLOCKED', 'NOT_SET'], description: 'OK when the card has a PIN, else NOT_SET; BLOCKED never occurs here' }) pin_status!: PinStatus;
  @ApiProperty({ type: [String], description: "Inside a transaction: the enforced auth rules that ran on its authorization; on a card's own answers, empty" }) auth_rule_tokens!: string[];
  @ApiProperty({ example: 'USD' }) cardholder_currency!: string;
  @ApiProperty({ type: [String], description: 'Always empty: no physical-card commands here' }) pending_commands!: string[];
  @AlwaysNull('no bulk orders (physical cards)') bulk_order_token!: null;
  @AlwaysNull('no digital card art') digital_card_art_token!: null;
  @AlwaysNull('no network programs') network_program_token!: null;
  @ApiProperty({ type: 'string', nullable: true, description: "PHYSICAL cards: the product (card art) of the card's latest plastic, when one was named" }) product_id!: string | null;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'The card this card replaces, when it was created as a replacement' }) replacement_for!: string | null;
  @AlwaysNull('no card substatus') substatus!: null;
}

/** The spec's card, with Lithic's fields first. */
@ApiSchema({ name: 'CardModel' })
export class CardResponse extends LithicCardFields {
  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00Z' }) created!: string;
  @ApiProperty({ pattern: '^\\d{3}$' }) cvv!: string;
  @ApiProperty({ type: FundingSourceResponse }) funding!: FundingSourceResponse;
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

/** The card inside a transaction: the same fields, under the schema name the document has published. */
export class TransactionCardModel extends CardResponse {}

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

/**
 * Lithic's CardSpendLimits: per duration key (daily, monthly, annually, forever; only the card's own
 * duration is present), the configured limit, what counts against it (spend_velocity) and what is
 * left. A card without a window (no limit, or TRANSACTION) answers only an empty `available_spend_limit`.
 */
@ApiSchema({ name: 'CardSpendLimitsModel' })
export class CardSpendLimitsResponse {
  @ApiProperty({ type: SpendLimitFiguresModel, description: 'Cents still available in the window; empty when the card has no window (no limit, or TRANSACTION)' })
  available_spend_limit!: SpendLimitFiguresModel;
  @ApiPropertyOptional({ type: SpendLimitFiguresModel, description: 'The configured limit' }) spend_limit?: SpendLimitFiguresModel;
  @ApiPropertyOptional({ type: SpendVelocityModel, description: 'Cents counted against the limit in the window (returns freeing earlier spend)' }) spend_velocity?: SpendVelocityModel;
}

@ApiSchema({ name: 'MerchantModel' })
export class MerchantResponse {
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

@ApiSchema({ name: 'MoneyAmountModel' })
export class MoneyAmount {
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ example: 'USD' }) currency!: string;
}

export class CardholderAmountModel extends MoneyAmount {
  @ApiProperty({ example: '1.000000', description: "Cardholder amount per merchant amount, at the authorization's rate" }) conversion_rate!: string;
}

/** Lithic's `amounts`: the transaction in the cardholder's, the merchant's and the settlement currency, and what is held. */
@ApiSchema({ name: 'TransactionAmountsModel' })
export class TransactionAmountsResponse {
  @ApiProperty({ type: CardholderAmountModel, description: "amount, in the card's currency" }) cardholder!: CardholderAmountModel;
  @ApiProperty({ type: MoneyAmount, description: 'What is held: amount while PENDING, else 0' }) hold!: MoneyAmount;
  @ApiProperty({ type: MoneyAmount, description: 'merchant_amount in merchant_currency' }) merchant!: MoneyAmount;
  @ApiProperty({ type: MoneyAmount, description: 'settled_amount' }) settlement!: MoneyAmount;
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

/** Lithic's point-of-sale facts. Simulated traffic carries none, so every value says UNKNOWN. */
@ApiSchema({ name: 'PosModel' })
export class PosResponse {
  @ApiProperty({ type: PosEntryModeModel }) entry_mode!: PosEntryModeModel;
  @ApiProperty({ type: PosTerminalModel }) terminal!: PosTerminalModel;
}

/** Lithic's per-event amounts: the event's amount in each currency; `settlement` only for events that move funds. */
@ApiSchema({ name: 'TransactionEventAmountsModel' })
export class TransactionEventAmountsResponse {
  @ApiProperty({ type: CardholderAmountModel, description: "The event's amount in the card's currency" }) cardholder!: CardholderAmountModel;
  @ApiProperty({ type: MoneyAmount, description: "The event's amount in merchant_currency, at the authorization's rate" }) merchant!: MoneyAmount;
  @ApiProperty({ type: CardholderAmountModel, nullable: true, description: 'Only for events that move funds (CLEARING, RETURN, RETURN_REVERSAL); null for authorizations, advices and voids' })
  settlement!: CardholderAmountModel | null;
}

/** Lithic's RuleResult: an enforced auth rule that refused the authorization. */
@ApiSchema({ name: 'RuleResultModel' })
export class RuleResultResponse {
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) auth_rule_token!: string | null;
  @ApiProperty({ type: String, nullable: true }) explanation!: string | null;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ enum: AUTH_RULE_DETAILED_RESULTS, description: "The rule's detailed result" }) result!: string;
}

@ApiSchema({ name: 'TransactionEventModel' })
export class TransactionEventResponse {
  @ApiProperty({ type: 'integer', description: 'Always positive' }) amount!: number;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ enum: TRANSACTION_RESULTS, description: 'APPROVED or the decline reason' }) result!: string;
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ enum: TRANSACTION_EVENT_TYPES }) type!: string;
  @ApiProperty({ type: TransactionEventAmountsResponse }) amounts!: TransactionEventAmountsResponse;
  @ApiProperty({
    type: 'array',
    items: { type: 'string', enum: [...new Set([...Object.values(DETAILED_RESULTS), ...AUTH_RULE_DETAILED_RESULTS, ...Object.values(ACCOUNT_LIMIT_DETAILED_RESULTS)])] },
    description: "Lithic's detailed result of `result`, one value (DECLINED where Lithic has none of the same meaning; the deciding auth rule's when a rule refused it)",
  })
  detailed_results!: string[];
  @ApiProperty({ enum: ['CREDIT', 'DEBIT'], description: 'CREDIT for VOID, AUTHORIZATION_EXPIRY and RETURN, else DEBIT' }) effective_polarity!: 'CREDIT' | 'DEBIT';
  @AlwaysNull('no card network carried simulated traffic', 'object') network_info!: null;
  @ApiProperty({ type: [RuleResultResponse], description: 'The enforced auth rules that refused the authorization; empty for every other event' }) rule_results!: RuleResultResponse[];
}

/** The spec's transaction, with the fields Lithic's carries beyond it (the SDK's Transaction). */
@ApiSchema({ name: 'TransactionModel' })
export class TransactionResponse {
  @ApiProperty({ format: 'uuid', description: 'Lithic: the account; here the program' }) account_token!: string;
  @ApiProperty({ format: 'uuid' }) card_token!: string;
  @ApiProperty({ format: 'date-time', description: 'When the transaction last changed' }) updated!: string;
  @ApiProperty({ type: TransactionAmountsResponse }) amounts!: TransactionAmountsResponse;
  @ApiProperty({ type: PosResponse, description: 'Simulated traffic carries no point-of-sale facts: UNKNOWN throughout' }) pos!: PosResponse;
  @AlwaysNull('simulated traffic crosses no card network') network!: null;
  @AlwaysNull('no network risk scoring', 'integer') network_risk_score!: null;
  @AlwaysNull('no acquirer') acquirer_reference_number!: null;
  @AlwaysNull('no address verification', 'object') avs!: null;
  @ApiProperty({ type: CardholderAuthenticationResponse, nullable: true, description: 'The 3DS authentication the authorization named (simulate/authorize three_ds_authentication_token); null when none' })
  cardholder_authentication!: CardholderAuthenticationResponse | null;
  @AlwaysNull('no financial accounts') financial_account_token!: null;
  @AlwaysNull('no service location', 'object') service_location!: null;
  @ApiProperty({ type: TokenInfoResponse, nullable: true, description: 'The wallet token the authorization came through; null for the card\'s own number' }) token_info!: TokenInfoResponse | null;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Always empty here' }) tags!: Record<string, string>;
  @ApiProperty({ type: 'integer' }) acquirer_fee!: number;
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ type: 'integer' }) authorization_amount!: number;
  @ApiProperty() authorization_code!: string;
  @ApiProperty({ type: TransactionCardModel }) card!: CardResponse;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: [TransactionEventResponse] }) events!: TransactionEventResponse[];
  @ApiProperty({ type: [TransactionFundingModel] }) funding!: TransactionFundingModel[];
  @ApiProperty({ type: MerchantResponse }) merchant!: MerchantResponse;
  @ApiProperty({ type: 'integer' }) merchant_amount!: number;
  @ApiProperty({ type: 'integer' }) merchant_authorization_amount!: number;
  @ApiProperty({ example: 'USD' }) merchant_currency!: string;
  @ApiProperty({ enum: TRANSACTION_RESULTS, description: 'APPROVED or the decline reason' }) result!: string;
  @ApiProperty({ type: 'integer' }) settled_amount!: number;
  @ApiProperty({ enum: TRANSACTION_STATUSES }) status!: string;
  @ApiProperty({ format: 'uuid' }) token!: string;
}

/** Answer of the simulation endpoints (spec 4.1-4.4). */
@ApiSchema({ name: 'SimulationModel' })
export class SimulationResponse {
  @ApiProperty({ format: 'uuid' }) debugging_request_id!: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'The transaction (authorize and return only)' }) token?: string;
}

export class SettlementModel {
  @ApiProperty({ format: 'uuid' }) debugging_request_id!: string;
  @ApiProperty({ type: [String], description: 'Transactions moved to SETTLED' }) settled!: string[];
  @ApiProperty({ type: [String], description: 'Transactions moved to BOUNCED' }) bounced!: string[];
}

/** GET /v1/simulate/clock: the calling program's test clock. */
@ApiSchema({ name: 'ProgramClockModel' })
export class ProgramClockResponse {
  @ApiProperty({ format: 'date-time', description: "Business time: what the program's spend windows, velocity rule, card expiry, platform limits and list filters read now" })
  now!: string;
  @ApiProperty({ format: 'date-time', description: 'The wall clock at the same moment (webhook signatures and rate limits use it)' })
  wall_time!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'The instant the last advance set; null: never advanced, the clock is the wall clock' })
  frozen_time!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'Wall time of the last advance; null: never advanced' })
  advanced_at!: string | null;
}

/**
 * The envelope of a list answer. Paged by `page` it carries the spec's `page`, `total_entries` and
 * `total_pages` (spec 4.8); paged by cursor, Lithic's `{data, has_more}` alone. `has_more` is on
 * both: items follow this page.
 */
export class PageEnvelope {
  @ApiProperty({ description: 'Items follow this page in the list order' }) has_more!: boolean;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Absent on a cursor page' }) page?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Absent on a cursor page' }) total_entries?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Absent on a cursor page' }) total_pages?: number;
}

export type Page<T> = PageEnvelope & { data: T[] };

/** The document's schema of a page of `model`, named `name`. */
export function pageOf<T>(model: Type<T>, name: string): Type<Page<T>> {
  class Paged extends PageEnvelope {
    @ApiProperty({ type: [model] }) data!: T[];
  }
  ApiSchema({ name })(Paged);
  return Paged;
}

/** `{ data: [...] }`, the envelope of the unpaged lists. */
export function listOf<T>(model: Type<T>, name: string): Type<{ data: T[] }> {
  class List {
    @ApiProperty({ type: [model] }) data!: T[];
  }
  ApiSchema({ name })(List);
  return List;
}

export const DEFAULT_PAGE_SIZE = 50;

/** Spec timestamp forms: cards use yyyy-MM-ddThh:mm:ssZ, funding sources yyyy-MM-dd hh:mm:ss. */
export function isoSeconds(date: Date): string {
  // toISOString always ends in '.sssZ' (also for years past 9999): cut, not a regular expression, as a list page writes hundreds.
  return `${date.toISOString().slice(0, -5)}Z`;
}

export function fundingTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '');
}

export const CardPageModel = pageOf(CardResponse, 'CardPage');
export const TransactionPageModel = pageOf(TransactionResponse, 'TransactionPage');
export const FundingSourcePageModel = pageOf(FundingSourceResponse, 'FundingSourcePage');
