import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { pageOf } from './responses';

/** Lithic's Auth Rule results, report and features (`lithic/resources/auth-rules/v2`), on the AUTHORIZATION stream. */

@ApiSchema({ name: 'AuthRuleActionModel' })
export class AuthRuleActionResponse {
  @ApiProperty({ enum: ['DECLINE', 'CHALLENGE'] }) type!: 'DECLINE' | 'CHALLENGE';
  @ApiPropertyOptional({ description: "A decline's detailed result" }) code?: string;
  @ApiPropertyOptional() explanation?: string;
}

@ApiSchema({ name: 'AuthRuleResultModel' })
export class AuthRuleResultResponse {
  @ApiProperty({ format: 'uuid', description: 'The evaluation: a name-based UUID of the event, the rule and its version' }) token!: string;
  @ApiProperty({ type: [AuthRuleActionResponse], description: 'Empty when the rule approved' }) actions!: AuthRuleActionResponse[];
  @ApiProperty({ format: 'uuid' }) auth_rule_token!: string;
  @ApiProperty({ format: 'date-time' }) evaluation_time!: string;
  @ApiProperty({ enum: ['AUTHORIZATION'] }) event_stream!: 'AUTHORIZATION';
  @ApiProperty({ format: 'uuid' }) event_token!: string;
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE'], description: 'ACTIVE: the enforced version; INACTIVE: the draft, run in shadow' }) mode!: 'ACTIVE' | 'INACTIVE';
  @ApiProperty({ type: 'integer' }) rule_version!: number;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) transaction_token!: string | null;
}

export const AuthRuleResultPageModel = pageOf(AuthRuleResultResponse, 'AuthRuleResultPage');

@ApiSchema({ name: 'AuthRuleReportExampleModel' })
export class AuthRuleReportExampleResponse {
  @ApiProperty({ type: [AuthRuleActionResponse] }) actions!: AuthRuleActionResponse[];
  @ApiProperty({ format: 'uuid' }) event_token!: string;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) transaction_token!: string | null;
}

@ApiSchema({ name: 'AuthRuleReportStatsModel' })
export class AuthRuleReportStatsResponse {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'Times each action was asked for; NO_ACTION when the rule approved' }) action_counts!: Record<string, number>;
  @ApiProperty({ type: [AuthRuleReportExampleResponse] }) examples!: AuthRuleReportExampleResponse[];
  @ApiProperty({ enum: ['ACTIVE', 'SHADOW', 'INACTIVE'] }) state!: 'ACTIVE' | 'SHADOW' | 'INACTIVE';
  @ApiProperty({ type: 'integer' }) version!: number;
}

@ApiSchema({ name: 'AuthRuleReportDayModel' })
export class AuthRuleReportDayResponse {
  @ApiProperty({ format: 'date' }) date!: string;
  @ApiProperty({ type: [AuthRuleReportStatsResponse] }) versions!: AuthRuleReportStatsResponse[];
}

@ApiSchema({ name: 'AuthRuleReportModel' })
export class AuthRuleReportResponse {
  @ApiProperty({ format: 'uuid' }) auth_rule_token!: string;
  @ApiProperty({ format: 'date' }) begin!: string;
  @ApiProperty({ type: [AuthRuleReportDayResponse] }) daily_statistics!: AuthRuleReportDayResponse[];
  @ApiProperty({ format: 'date' }) end!: string;
}

@ApiSchema({ name: 'AuthRuleFeatureValueModel' })
export class AuthRuleFeatureValueResponse {
  @ApiProperty({ type: 'integer', description: 'Cents counted in the period' }) amount!: number;
  @ApiProperty({ type: 'integer', description: 'Transactions counted in the period' }) count!: number;
}

@ApiSchema({ name: 'AuthRuleFeatureModel' })
export class AuthRuleFeatureResponse {
  @ApiProperty({ type: 'object', additionalProperties: true }) filters!: Record<string, unknown>;
  @ApiProperty({ type: 'object', additionalProperties: true }) period!: Record<string, unknown>;
  @ApiProperty({ enum: ['CARD', 'ACCOUNT'] }) scope!: 'CARD' | 'ACCOUNT';
  @ApiProperty({ type: AuthRuleFeatureValueResponse }) value!: AuthRuleFeatureValueResponse;
}

@ApiSchema({ name: 'AuthRuleFeaturesModel' })
export class AuthRuleFeaturesResponse {
  @ApiProperty({ format: 'date-time' }) evaluated!: string;
  @ApiProperty({ type: [AuthRuleFeatureResponse] }) features!: AuthRuleFeatureResponse[];
}
