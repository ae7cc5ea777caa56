import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { FUNDING_SOURCE_STATES, MAX_TRACKED_ATTEMPTS, PROGRAM_STATES } from '@ledger/domain';
import type { FundingSourceState, ProgramState } from '@ledger/domain';
import { TokenField } from './token-field';
import { MAX_MONEY } from './validation';

export class PlatformSpendLimits {
  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_MONEY)
  transaction?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_MONEY)
  weekly?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_MONEY)
  monthly?: number;
}

export class VelocityLimit {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_TRACKED_ATTEMPTS })
  @IsInt()
  @Min(1)
  @Max(MAX_TRACKED_ATTEMPTS)
  max_authorizations!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 86_400 })
  @IsInt()
  @Min(1)
  @Max(86_400)
  window_seconds!: number;
}

/** PATCH /v1/accounts/{account_token}: the program's own settings (an account is a program here). */
export class UpdateAccountRequest {
  @ApiPropertyOptional({ enum: PROGRAM_STATES })
  @IsOptional()
  @IsIn(PROGRAM_STATES, { message: `state must be one of ${PROGRAM_STATES.join(', ')}` })
  state?: ProgramState;

  @ApiPropertyOptional({ type: PlatformSpendLimits })
  @IsOptional()
  @ValidateNested()
  @Type(() => PlatformSpendLimits)
  spend_limit?: PlatformSpendLimits;

  /** null switches the velocity rule off. */
  @ApiPropertyOptional({ type: VelocityLimit, nullable: true, description: 'null switches the velocity rule off' })
  @IsOptional()
  @ValidateNested()
  @Type(() => VelocityLimit)
  velocity_limit?: VelocityLimit | null;

  @ApiPropertyOptional({ type: [String], maxItems: 1000 })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  blocked_merchants?: string[];

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Lithic\'s name for spend_limit.monthly (cents over the trailing month; 0 is none). If both are sent they must agree.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_MONEY)
  monthly_spend_limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 0, description: 'Lithic\'s daily account limit. Only 0 (none): the platform has no daily limit (the spec\'s decline results have none to decline with).' })
  @IsOptional()
  @IsInt()
  @Max(0, { message: 'daily_spend_limit can only be 0 (no limit): the platform has no daily limit; use spend_limit.weekly or monthly' })
  @Min(0)
  daily_spend_limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 0, description: 'Lithic\'s lifetime account limit. Only 0 (none): the platform has no lifetime limit (the spec\'s decline results have none to decline with).' })
  @IsOptional()
  @IsInt()
  @Max(0, { message: 'lifetime_spend_limit can only be 0 (no limit): the platform has no lifetime limit; use spend_limit.weekly or monthly' })
  @Min(0)
  lifetime_spend_limit?: number;
}

export class AccountTokenParam {
  @TokenField()
  account_token!: string;
}

export const FUNDING_SOURCE_TYPES_ACCEPTED = ['DEPOSITORY_CHECKING', 'DEPOSITORY_SAVINGS'] as const;

/** POST /v1/funding_sources: a bank account for the sandbox; only its last four digits are kept. */
export class CreateFundingSourceRequest {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @MinLength(1, { message: 'account_name must not be empty' })
  @MaxLength(255)
  account_name!: string;

  @ApiPropertyOptional({ pattern: '^\\d{4,17}$', description: 'Only the last four digits are kept' })
  @IsOptional()
  @Matches(/^\d{4,17}$/, { message: 'account_number must be 4 to 17 digits' })
  account_number?: string;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  nickname?: string;

  @ApiPropertyOptional({ enum: FUNDING_SOURCE_TYPES_ACCEPTED })
  @IsOptional()
  @IsIn(FUNDING_SOURCE_TYPES_ACCEPTED, { message: `type must be one of ${FUNDING_SOURCE_TYPES_ACCEPTED.join(', ')}` })
  type?: (typeof FUNDING_SOURCE_TYPES_ACCEPTED)[number];

  @ApiPropertyOptional({ enum: FUNDING_SOURCE_STATES })
  @IsOptional()
  @IsIn(FUNDING_SOURCE_STATES, { message: `state must be one of ${FUNDING_SOURCE_STATES.join(', ')}` })
  state?: FundingSourceState;
}

/** PATCH /v1/funding_sources/{funding_token}. */
export class UpdateFundingSourceRequest {
  @ApiPropertyOptional({ enum: FUNDING_SOURCE_STATES })
  @IsOptional()
  @IsIn(FUNDING_SOURCE_STATES, { message: `state must be one of ${FUNDING_SOURCE_STATES.join(', ')}` })
  state?: FundingSourceState;

  @ApiPropertyOptional({ maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  nickname?: string;
}

export class FundingTokenParam {
  @TokenField()
  funding_token!: string;
}

/** Stripe gives an authorization endpoint 2 s; Lithic allows 6 s. */
export const DEFAULT_AUTH_STREAM_TIMEOUT_MS = 2000;

/** PUT /v1/auth_stream: the program's own authorization endpoint. */
export class EnrollAuthorizationStreamRequest {
  @ApiProperty({ format: 'uri', maxLength: 2048 })
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'url must be an http or https URL' })
  @MaxLength(2048)
  url!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 100, maximum: 6000, default: 2000 })
  @IsOptional()
  @IsInt({ message: 'timeout_ms must be an integer from 100 to 6000' })
  @Min(100, { message: 'timeout_ms must be an integer from 100 to 6000' })
  @Max(6000, { message: 'timeout_ms must be an integer from 100 to 6000' })
  timeout_ms?: number;
}
