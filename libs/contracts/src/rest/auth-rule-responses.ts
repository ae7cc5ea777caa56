import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { AUTH_RULE_TYPES } from '@ledger/domain';
import { listOf, pageOf } from './responses';

/** Lithic's AuthRule and its versions (`lithic/resources/auth-rules/v2`). */

@ApiSchema({ name: 'AuthRuleVersionModel' })
export class AuthRuleCurrentVersionResponse {
  @ApiProperty({ type: 'object', additionalProperties: true }) parameters!: Record<string, unknown>;
  @ApiProperty({ type: 'integer' }) version!: number;
}

@ApiSchema({ name: 'AuthRuleDraftVersionModel' })
export class AuthRuleDraftVersionResponse extends AuthRuleCurrentVersionResponse {
  @ApiProperty({ type: String, nullable: true, description: 'Always null here: no rule compiles asynchronously' }) error!: null;
  @ApiProperty({ enum: ['PENDING', 'SHADOWING', 'ERROR'], description: 'Always SHADOWING here' }) state!: 'SHADOWING';
}

@ApiSchema({ name: 'AuthRuleModel' })
export class AuthRuleResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ type: [String] }) account_tokens!: string[];
  @ApiProperty({ type: [String], description: 'Always empty: there are no business accounts here' }) business_account_tokens!: string[];
  @ApiProperty({ type: [String] }) card_tokens!: string[];
  @ApiProperty({ type: AuthRuleCurrentVersionResponse, nullable: true }) current_version!: AuthRuleCurrentVersionResponse | null;
  @ApiProperty({ type: AuthRuleDraftVersionResponse, nullable: true }) draft_version!: AuthRuleDraftVersionResponse | null;
  @ApiProperty({ enum: ['AUTHORIZATION'] }) event_stream!: 'AUTHORIZATION';
  @ApiProperty({ description: 'Always false: every rule here is the program\'s own' }) lithic_managed!: boolean;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty() program_level!: boolean;
  @ApiProperty({ enum: ['ACTIVE', 'INACTIVE'] }) state!: 'ACTIVE' | 'INACTIVE';
  @ApiProperty({ enum: AUTH_RULE_TYPES }) type!: string;
  @ApiProperty({ type: [String] }) excluded_account_tokens!: string[];
  @ApiProperty({ type: [String] }) excluded_business_account_tokens!: string[];
  @ApiProperty({ type: [String] }) excluded_card_tokens!: string[];
}

@ApiSchema({ name: 'AuthRuleVersionEntryModel' })
export class AuthRuleVersionResponse {
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) parameters!: Record<string, unknown>;
  @ApiProperty({ enum: ['ACTIVE', 'SHADOW', 'INACTIVE'] }) state!: 'ACTIVE' | 'SHADOW' | 'INACTIVE';
  @ApiProperty({ type: 'integer' }) version!: number;
}

export const AuthRulePageModel = pageOf(AuthRuleResponse, 'AuthRulePage');
export const AuthRuleVersionListModel = listOf(AuthRuleVersionResponse, 'AuthRuleVersionList');
