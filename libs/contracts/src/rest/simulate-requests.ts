import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength, ValidateBy } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TokenField } from './token-field';
import { parseInstantParameter } from './query-parameters';
import { MAX_MONEY } from './validation';

const amountMessage = (min: number) => `amount must be an integer number of cents, ${min} or more`;
export const MAX_DESCRIPTOR_LENGTH = 255;
export const SIMULATED_AUTHORIZATION_STATUSES = ['AUTHORIZATION'] as const;
export const SIMULATED_VOID_TYPES = ['AUTHORIZATION_REVERSAL'] as const;

/** POST /v1/simulate/authorize (spec 4.1) plus the optional merchant and card-detail fields of issue 3. */
export class SimulateAuthorizeRequest {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Cents' })
  @IsInt({ message: amountMessage(0) })
  @Min(0, { message: amountMessage(0) })
  @Max(MAX_MONEY)
  amount!: number;

  @ApiProperty({ minLength: 1, maxLength: MAX_DESCRIPTOR_LENGTH, description: 'Merchant descriptor' })
  @IsString()
  @MinLength(1, { message: 'descriptor must not be empty' })
  @MaxLength(MAX_DESCRIPTOR_LENGTH)
  descriptor!: string;

  @ApiProperty({ pattern: '^\\d{16}$' })
  @Matches(/^\d{16}$/, { message: 'pan must be a 16-digit card number' })
  pan!: string;

  @ApiPropertyOptional({ pattern: '^\\d{4}$', default: '5999' })
  @IsOptional()
  @Matches(/^\d{4}$/, { message: 'mcc must be a four-digit merchant category code' })
  mcc?: string;

  @ApiPropertyOptional({ maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  merchant_acceptor_id?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'Merchant city (Lithic: merchant_acceptor_city)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  city?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'Merchant state (Lithic: merchant_acceptor_state)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  state?: string;

  @ApiPropertyOptional({ pattern: '^[A-Z]{3}$', default: 'USA', description: 'ISO 3166 alpha-3 (Lithic: merchant_acceptor_country)' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'country must be a three-letter ISO 3166 alpha-3 code' })
  country?: string;

  @ApiPropertyOptional({ pattern: '^[A-Z]{3}$', default: 'USD' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'merchant_currency must be a three-letter ISO 4217 code' })
  merchant_currency?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'In the smallest unit of merchant_currency; amount by default' })
  @IsOptional()
  @IsInt({ message: 'merchant_amount must be an integer in the smallest unit of merchant_currency' })
  @Min(0)
  @Max(MAX_MONEY)
  merchant_amount?: number;

  @ApiPropertyOptional({ pattern: '^\\d{3}$', description: 'Checked when given' })
  @IsOptional()
  @Matches(/^\d{3}$/, { message: 'cvv must be three digits' })
  cvv?: string;

  @ApiPropertyOptional({ pattern: '^(0[1-9]|1[0-2])$', description: 'Checked when given' })
  @IsOptional()
  @Matches(/^(0[1-9]|1[0-2])$/, { message: 'exp_month must be two digits, 01 to 12' })
  exp_month?: string;

  @ApiPropertyOptional({ pattern: '^\\d{4}$', description: 'Checked when given' })
  @IsOptional()
  @Matches(/^\d{4}$/, { message: 'exp_year must be a four-digit year' })
  exp_year?: string;

  @ApiPropertyOptional({ pattern: '^\\d{4,12}$', description: 'Checked when given' })
  @IsOptional()
  @Matches(/^\d{4,12}$/, { message: 'pin must be 4 to 12 digits' })
  pin?: string;

  /** Whether the program's authorization endpoint may approve a smaller amount. */
  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  partial_approval_capable?: boolean;

  /** Lithic's SDK name for `city`; both may be sent if they agree (docs/decisions.md, Lithic SDK). */
  @ApiPropertyOptional({ maxLength: 64, description: 'Alias of city (Lithic SDK)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  merchant_acceptor_city?: string;

  /** Lithic's SDK name for `state`. */
  @ApiPropertyOptional({ maxLength: 64, description: 'Alias of state (Lithic SDK)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  merchant_acceptor_state?: string;

  /** Lithic's SDK name for `country`. */
  @ApiPropertyOptional({ pattern: '^[A-Z]{3}$', description: 'Alias of country (Lithic SDK)' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'merchant_acceptor_country must be a three-letter ISO 3166 alpha-3 code' })
  merchant_acceptor_country?: string;

  /**
   * Lithic's kind of simulated message. Only AUTHORIZATION (its default, a dual-message purchase) is
   * what this endpoint simulates; balance inquiries and credit or single-message authorizations are not.
   */
  @ApiPropertyOptional({ enum: SIMULATED_AUTHORIZATION_STATUSES, description: 'Lithic SDK field; only AUTHORIZATION is simulated' })
  @IsOptional()
  @IsIn(SIMULATED_AUTHORIZATION_STATUSES, { message: 'status must be AUTHORIZATION (the only kind simulated)' })
  status?: (typeof SIMULATED_AUTHORIZATION_STATUSES)[number];
}

/** POST /v1/simulate/return (spec 4.4). */
export class SimulateReturnRequest {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Cents' })
  @IsInt({ message: amountMessage(1) })
  @Min(1, { message: amountMessage(1) })
  @Max(MAX_MONEY)
  amount!: number;

  @ApiProperty({ minLength: 1, maxLength: MAX_DESCRIPTOR_LENGTH })
  @IsString()
  @MinLength(1, { message: 'descriptor must not be empty' })
  @MaxLength(MAX_DESCRIPTOR_LENGTH)
  descriptor!: string;

  @ApiProperty({ pattern: '^\\d{16}$' })
  @Matches(/^\d{16}$/, { message: 'pan must be a 16-digit card number' })
  pan!: string;
}

/** POST /v1/simulate/authorization_advice: the new authorized amount is what an advice says, so it is required (as in Lithic). */
export class SimulateTransactionAmountRequest {
  @TokenField({ description: 'The transaction token from /v1/simulate/authorize' })
  token!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Cents' })
  @IsInt({ message: amountMessage(1) })
  @Min(1, { message: amountMessage(1) })
  @Max(MAX_MONEY)
  amount!: number;
}

/**
 * POST /v1/simulate/clearing (spec 4.3). The spec makes `amount` required; without it (as the Lithic
 * SDK allows) the whole pending amount is cleared, so every request the spec accepts still means
 * what it did (docs/decisions.md, Lithic SDK).
 */
export class SimulateClearingRequest {
  @TokenField({ description: 'The transaction token from /v1/simulate/authorize' })
  token!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Cents; the full pending amount when absent' })
  @IsOptional()
  @IsInt({ message: amountMessage(1) })
  @Min(1, { message: amountMessage(1) })
  @Max(MAX_MONEY)
  amount?: number;
}

/**
 * POST /v1/simulate/void (spec 4.2): without `amount`, the whole pending amount is voided. `type` is
 * the Lithic SDK's: a void here is the merchant's AUTHORIZATION_REVERSAL, its default; an
 * AUTHORIZATION_EXPIRY is not simulated.
 */
export class SimulateVoidRequest extends SimulateClearingRequest {
  @ApiPropertyOptional({ enum: SIMULATED_VOID_TYPES, description: 'Lithic SDK field; only AUTHORIZATION_REVERSAL is simulated' })
  @IsOptional()
  @IsIn(SIMULATED_VOID_TYPES, { message: 'type must be AUTHORIZATION_REVERSAL (the only kind of void simulated)' })
  type?: (typeof SIMULATED_VOID_TYPES)[number];
}

/** POST /v1/simulate/return_reversal (Lithic SDK `simulateReturnReversal`): the return to take back, whole. */
export class SimulateReturnReversalRequest {
  @TokenField({ description: 'The transaction token from /v1/simulate/return' })
  token!: string;
}

/** POST /v1/simulate/settle: one transaction, or every SETTLING transaction of the program. */
export class SimulateSettleRequest {
  @TokenField({ optional: true, description: 'One transaction; every SETTLING transaction of the program when absent' })
  token?: string;
}

export const RESULT_FILTERS = ['APPROVED', 'DECLINED'] as const;

/** POST /v1/simulate/clock/advance: move the calling program's test clock forward to this instant. */
export class SimulateClockAdvanceRequest {
  @ApiProperty({
    type: String,
    format: 'date-time',
    description: "RFC 3339 instant (UTC `Z` or an offset) to move the program's clock to; not before the clock's now. The clock keeps running from there",
  })
  @IsString()
  @ValidateBy({ name: 'instant', validator: { validate: (value: unknown) => parseInstantParameter(value) !== null, defaultMessage: () => 'frozen_time must be an RFC 3339 instant, YYYY-MM-DDThh:mm:ss[.fraction] with Z or an offset' } })
  frozen_time!: string;
}
