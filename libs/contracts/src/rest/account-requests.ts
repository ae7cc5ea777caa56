import { ArrayMaxSize, IsArray, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_AUTHORIZATION_STREAM_TIMEOUT_MS, FUNDING_SOURCE_STATES, MAX_TRACKED_ATTEMPTS, PROGRAM_STATES } from '@ledger/domain';
import type { FundingSourceState, ProgramState } from '@ledger/domain';
import { TokenField } from './token-field';
import { CentsField, FieldOptions, NestedField, OneOfField, PatternField, TextField, UrlField, valueField } from './value-fields';

/** Merchant descriptors refused on every card of the program. */
function BlockedMerchantsField(): PropertyDecorator {
  return valueField({ type: [String], maxItems: 1000 }, { optional: true }, [IsArray(), ArrayMaxSize(1000), IsString({ each: true }), MaxLength(255, { each: true })]);
}

export class PlatformSpendLimits {
  @CentsField({ optional: true })
  transaction?: number;

  @CentsField({ optional: true })
  weekly?: number;

  @CentsField({ optional: true })
  monthly?: number;
}

/** A whole number from `minimum` to `maximum`. */
function BoundedIntegerField(minimum: number, maximum: number, options: FieldOptions & { message?: string } = {}): PropertyDecorator {
  const message = options.message === undefined ? undefined : { message: options.message };
  return valueField({ type: 'integer', minimum, maximum }, options, [IsInt(message), Min(minimum, message), Max(maximum, message)]);
}

export class VelocityLimit {
  @BoundedIntegerField(1, MAX_TRACKED_ATTEMPTS)
  max_authorizations!: number;

  @BoundedIntegerField(1, 86_400)
  window_seconds!: number;
}

/** PATCH /v1/accounts/{account_token}: the program's own settings (an account is a program here). */
export class UpdateAccountRequest {
  @OneOfField(PROGRAM_STATES, { optional: true })
  state?: ProgramState;

  @NestedField(() => PlatformSpendLimits, { optional: true })
  spend_limit?: PlatformSpendLimits;

  @NestedField(() => VelocityLimit, { optional: true, nullable: true, description: 'null switches the velocity rule off' })
  velocity_limit?: VelocityLimit | null;

  @BlockedMerchantsField()
  blocked_merchants?: string[];

  @CentsField({ optional: true, description: 'Lithic\'s name for spend_limit.monthly (cents over the trailing month; 0 is none). If both are sent they must agree.' })
  monthly_spend_limit?: number;

  @CentsField({ optional: true, description: "Lithic's daily account limit: cents over the trailing 24 hours across all cards; 0 is none. Exceeded, an authorization declines GLOBAL_WEEKLY_LIMIT (the spec has no daily result)." })
  daily_spend_limit?: number;

  @CentsField({ optional: true, description: "Lithic's lifetime account limit: cents over the program's whole life across all cards; 0 is none. Exceeded, an authorization declines GLOBAL_MONTHLY_LIMIT (the spec has no lifetime result)." })
  lifetime_spend_limit?: number;
}

export class AccountTokenParam {
  @TokenField()
  account_token!: string;
}

export const FUNDING_SOURCE_TYPES_ACCEPTED = ['DEPOSITORY_CHECKING', 'DEPOSITORY_SAVINGS'] as const;

/** POST /v1/funding_sources: a bank account for the sandbox; only its last four digits are kept. */
export class CreateFundingSourceRequest {
  @TextField(255, { notEmpty: 'account_name must not be empty' })
  account_name!: string;

  @PatternField(/^\d{4,17}$/, 'account_number must be 4 to 17 digits', { optional: true, description: 'Only the last four digits are kept' })
  account_number?: string;

  @TextField(255, { optional: true })
  nickname?: string;

  @OneOfField(FUNDING_SOURCE_TYPES_ACCEPTED, { optional: true })
  type?: (typeof FUNDING_SOURCE_TYPES_ACCEPTED)[number];

  @OneOfField(FUNDING_SOURCE_STATES, { optional: true })
  state?: FundingSourceState;
}

/** PATCH /v1/funding_sources/{funding_token}. */
export class UpdateFundingSourceRequest {
  @OneOfField(FUNDING_SOURCE_STATES, { optional: true })
  state?: FundingSourceState;

  @TextField(255, { optional: true })
  nickname?: string;
}

export class FundingTokenParam {
  @TokenField()
  funding_token!: string;
}

export const DEFAULT_AUTH_STREAM_TIMEOUT_MS = DEFAULT_AUTHORIZATION_STREAM_TIMEOUT_MS;

/** PUT /v1/auth_stream: the program's own authorization endpoint. */
export class EnrollAuthorizationStreamRequest {
  @UrlField()
  url!: string;

  @BoundedIntegerField(100, 6000, { optional: true, default: 2000, message: 'timeout_ms must be an integer from 100 to 6000' })
  timeout_ms?: number;
}
