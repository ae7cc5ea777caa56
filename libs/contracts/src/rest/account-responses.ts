import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { PROGRAM_STATES } from '@ledger/domain';
import { pageOf } from './responses';

/** Answers of the account routes: the program's settings and limits, and its authorization stream (see responses.ts). */

/** Ours (transaction, weekly, monthly) and Lithic's (daily, monthly, lifetime) side by side; monthly is the same limit. */
export class AccountSpendLimitsModel {
  @ApiProperty({ type: 'integer', description: 'Cents per authorization; 0 is none' }) transaction!: number;
  @ApiProperty({ type: 'integer', description: 'Cents over the trailing week; 0 is none' }) weekly!: number;
  @ApiProperty({ type: 'integer', description: "Cents over the trailing month; 0 is none (ours and Lithic's monthly)" }) monthly!: number;
  @ApiProperty({ type: 'integer', description: "Lithic's daily account limit: cents over the trailing 24 hours; 0 is none. Exceeded: GLOBAL_WEEKLY_LIMIT" }) daily!: number;
  @ApiProperty({ type: 'integer', description: "Lithic's lifetime account limit: cents over the program's life; 0 is none. Exceeded: GLOBAL_MONTHLY_LIMIT" }) lifetime!: number;
}

/** Lithic's AccountSpendLimits keys (daily, monthly, lifetime) and ours (weekly) beside them; a window without a limit is absent. */
export class AccountSpendWindowsModel {
  @ApiPropertyOptional({ type: 'integer', description: "The trailing 24 hours (Lithic's)" }) daily?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'The trailing week (ours)' }) weekly?: number;
  @ApiPropertyOptional({ type: 'integer', description: "The trailing month (ours and Lithic's)" }) monthly?: number;
  @ApiPropertyOptional({ type: 'integer', description: "The program's life (Lithic's)" }) lifetime?: number;
}

export class AccountSpendVelocityModel {
  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: "The trailing 24 hours (Lithic's)" }) daily?: bigint;
  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: 'The trailing week (ours)' }) weekly?: bigint;
  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: "The trailing month (ours and Lithic's)" }) monthly?: bigint;
  @ApiPropertyOptional({ type: 'integer', format: 'int64', description: "The program's life (Lithic's)" }) lifetime?: bigint;
}

/**
 * Lithic's AccountSpendLimits over the program's platform limits: per window that has a limit, the
 * limit, what counts against it and what is left. `daily`, `monthly` and `lifetime` are Lithic's
 * keys; `weekly` is ours, beside them.
 */
@ApiSchema({ name: 'AccountSpendLimitStandingModel' })
export class AccountSpendLimitsResponse {
  @ApiProperty({ type: AccountSpendWindowsModel, description: 'What the next authorization may still spend in each window, never below 0' })
  available_spend_limit!: AccountSpendWindowsModel;
  @ApiProperty({ type: AccountSpendWindowsModel, description: 'The configured limits' }) spend_limit!: AccountSpendWindowsModel;
  @ApiProperty({ type: AccountSpendVelocityModel, description: 'Cents counted against each limit in its window (returns freeing earlier spend)' }) spend_velocity!: AccountSpendVelocityModel;
}

export class AccountVelocityLimitModel {
  @ApiProperty({ type: 'integer' }) max_authorizations!: number;
  @ApiProperty({ type: 'integer' }) window_seconds!: number;
}

@ApiSchema({ name: 'AccountModel' })
export class AccountResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: PROGRAM_STATES }) state!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: AccountSpendLimitsModel }) spend_limit!: AccountSpendLimitsModel;
  @ApiProperty({ type: AccountVelocityLimitModel, nullable: true }) velocity_limit!: AccountVelocityLimitModel | null;
  @ApiProperty({ type: [String] }) blocked_merchants!: string[];
}

/** The program's authorization endpoint: where, how long it is given, and the secret that signs what is sent. */
@ApiSchema({ name: 'AuthorizationStreamModel' })
export class AuthorizationStreamResponse {
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ type: 'integer' }) timeout_ms!: number;
  @ApiProperty({ description: 'Signs the requests sent to url' }) secret!: string;
}

/** Lithic's `auth_stream/secret` answer. */
@ApiSchema({ name: 'AuthorizationStreamSecretModel' })
export class AuthorizationStreamSecretResponse {
  @ApiProperty({ description: 'Signs the authorization requests (whsec_ form)' }) secret!: string;
}

export const AccountPageModel = pageOf(AccountResponse, 'AccountPage');
