import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CARD_STATES, CREATABLE_CARD_STATES, CREATABLE_CARD_TYPES, SPEND_LIMIT_DURATIONS, UPDATABLE_CARD_STATES } from '@ledger/domain';
import type { CardState, CreatableCardState, SpendLimitDuration, UpdatableCardState } from '@ledger/domain';
import { TokenField } from './token-field';
import { MAX_MONEY, PagedDateRangeParams } from './validation';

export const MAX_MEMO_LENGTH = 1024;

/** POST /v1/cards (spec 4.5). */
export class CreateCardRequest {
  @ApiProperty({ enum: CREATABLE_CARD_TYPES })
  @IsIn(CREATABLE_CARD_TYPES, { message: `type must be one of ${CREATABLE_CARD_TYPES.join(', ')}` })
  type!: (typeof CREATABLE_CARD_TYPES)[number];

  @ApiPropertyOptional({ maxLength: MAX_MEMO_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_MEMO_LENGTH)
  memo?: string;

  @TokenField({ optional: true, description: 'The funding source of the card; the program default if absent' })
  funding_token?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Cents; 0 is no limit' })
  @IsOptional()
  @IsInt({ message: 'spend_limit must be an integer number of cents' })
  @Min(0)
  @Max(MAX_MONEY)
  spend_limit?: number;

  @ApiPropertyOptional({ enum: SPEND_LIMIT_DURATIONS, default: 'TRANSACTION' })
  @IsOptional()
  @IsIn(SPEND_LIMIT_DURATIONS, { message: `spend_limit_duration must be one of ${SPEND_LIMIT_DURATIONS.join(', ')}` })
  spend_limit_duration?: SpendLimitDuration;

  @ApiPropertyOptional({ enum: CREATABLE_CARD_STATES, default: 'OPEN' })
  @IsOptional()
  @IsIn(CREATABLE_CARD_STATES, { message: `state must be one of ${CREATABLE_CARD_STATES.join(', ')}` })
  state?: CreatableCardState;

  @ApiPropertyOptional({ pattern: '^(0[1-9]|1[0-2])$', description: 'With exp_year; generated (3 years ahead) when both are absent' })
  @IsOptional()
  @Matches(/^(0[1-9]|1[0-2])$/, { message: 'exp_month must be two digits, 01 to 12' })
  exp_month?: string;

  @ApiPropertyOptional({ pattern: '^\\d{4}$', description: 'With exp_month' })
  @IsOptional()
  @Matches(/^\d{4}$/, { message: 'exp_year must be a four-digit year' })
  exp_year?: string;

  /** Sandbox: the card's PIN, kept only as a keyed hash; simulated authorizations may present one. */
  @ApiPropertyOptional({ pattern: '^\\d{4,12}$', description: 'Sandbox: kept only as a keyed hash' })
  @IsOptional()
  @Matches(/^\d{4,12}$/, { message: 'pin must be 4 to 12 digits' })
  pin?: string;
}

/** POST /v1/cards/search_by_pan (Lithic's cards.searchByPan): the number of one of the calling program's cards. */
export class SearchCardByPanRequest {
  @ApiProperty({ pattern: '^\\d{16}$', description: 'The card number; only the calling program\'s cards are found' })
  @Matches(/^\d{16}$/, { message: 'pan must be a 16-digit card number' })
  pan!: string;
}

/** PATCH /v1/cards/{card_token} (spec 4.6). */
export class UpdateCardRequest {
  @ApiPropertyOptional({ enum: UPDATABLE_CARD_STATES, description: 'CLOSED is final' })
  @IsOptional()
  @IsIn(UPDATABLE_CARD_STATES, { message: `state must be one of ${UPDATABLE_CARD_STATES.join(', ')}` })
  state?: UpdatableCardState;

  @TokenField({ optional: true })
  funding_token?: string;

  @ApiPropertyOptional({ maxLength: MAX_MEMO_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_MEMO_LENGTH)
  memo?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Cents; 0 is no limit' })
  @IsOptional()
  @IsInt({ message: 'spend_limit must be an integer number of cents' })
  @Min(0)
  @Max(MAX_MONEY)
  spend_limit?: number;

  @ApiPropertyOptional({ enum: SPEND_LIMIT_DURATIONS })
  @IsOptional()
  @IsIn(SPEND_LIMIT_DURATIONS, { message: `spend_limit_duration must be one of ${SPEND_LIMIT_DURATIONS.join(', ')}` })
  spend_limit_duration?: SpendLimitDuration;

  /** Sandbox: the card's PIN, kept only as a keyed hash; simulated authorizations may present one. */
  @ApiPropertyOptional({ pattern: '^\\d{4,12}$', description: 'Sandbox: kept only as a keyed hash' })
  @IsOptional()
  @Matches(/^\d{4,12}$/, { message: 'pin must be 4 to 12 digits' })
  pin?: string;
}

export class CardTokenParam {
  @TokenField()
  card_token!: string;
}

/** Query of GET /v1/cards (spec 4.7). Query strings arrive as text: numbers are converted, then checked. */
export class ListCardsParams extends PagedDateRangeParams {
  @TokenField({ optional: true, description: 'The program token returns every card; any other token none' })
  account_token?: string;

  /** Lithic's card list filter. */
  @ApiPropertyOptional({ enum: CARD_STATES })
  @IsOptional()
  @IsIn(CARD_STATES, { message: `state must be one of ${CARD_STATES.join(', ')}` })
  state?: CardState;

  /** Lithic's card list filter: cards whose memo contains this text, in any letter case. */
  @ApiPropertyOptional({ maxLength: MAX_MEMO_LENGTH, description: 'Cards whose memo contains this text (letter case ignored)' })
  @IsOptional()
  @IsString({ message: 'memo must be a single text' })
  @MaxLength(MAX_MEMO_LENGTH)
  memo?: string;
}
