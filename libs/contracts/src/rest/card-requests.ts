import { IsString, MaxLength } from 'class-validator';
import { CARD_STATES, CREATABLE_CARD_STATES, CREATABLE_CARD_TYPES, SPEND_LIMIT_DURATIONS, UPDATABLE_CARD_STATES } from '@ledger/domain';
import type { CardState, CreatableCardState, SpendLimitDuration, UpdatableCardState } from '@ledger/domain';
import { TokenField } from './token-field';
import { PagedDateRangeParams } from './validation';
import { CentsField, ExpiryMonthField, ExpiryYearField, OneOfField, PatternField, PinField, TextField, valueField } from './value-fields';
import { PlasticOrderRequest } from './physical-card-requests';

export const MAX_MEMO_LENGTH = 1024;

/** POST /v1/cards (spec 4.5); a PHYSICAL card names where its plastic goes (PlasticOrderRequest). */
export class CreateCardRequest extends PlasticOrderRequest {
  @OneOfField(CREATABLE_CARD_TYPES)
  type!: (typeof CREATABLE_CARD_TYPES)[number];

  @TextField(MAX_MEMO_LENGTH, { optional: true })
  memo?: string;

  @TokenField({ optional: true, description: 'The funding source of the card; the program default if absent' })
  funding_token?: string;

  @CentsField({ optional: true, description: 'Cents; 0 is no limit', message: 'spend_limit must be an integer number of cents' })
  spend_limit?: number;

  @OneOfField(SPEND_LIMIT_DURATIONS, { optional: true, default: 'TRANSACTION' })
  spend_limit_duration?: SpendLimitDuration;

  @OneOfField(CREATABLE_CARD_STATES, { optional: true, default: 'OPEN' })
  state?: CreatableCardState;

  @ExpiryMonthField({ optional: true, description: 'With exp_year; generated (3 years ahead) when both are absent' })
  exp_month?: string;

  @ExpiryYearField({ optional: true, description: 'With exp_month' })
  exp_year?: string;

  /** Sandbox: the card's PIN, kept only as a keyed hash; simulated authorizations may present one. */
  @PinField({ optional: true, description: 'Sandbox: kept only as a keyed hash' })
  pin?: string;

  @TokenField({ optional: true, description: "The card program to issue on: each program has one, whose token is the program's" })
  card_program_token?: string;

  @TokenField({ optional: true, description: "The card this card replaces, of the same type; its limits and funding apply unless given" })
  replacement_for?: string;
}

/** POST /v1/cards/search_by_pan (Lithic's cards.searchByPan): the number of one of the calling program's cards. */
export class SearchCardByPanRequest {
  @PatternField(/^\d{16}$/, 'pan must be a 16-digit card number', { description: 'The card number; only the calling program\'s cards are found' })
  pan!: string;
}

/** PATCH /v1/cards/{card_token} (spec 4.6). */
export class UpdateCardRequest {
  @OneOfField(UPDATABLE_CARD_STATES, { optional: true, description: 'CLOSED is final' })
  state?: UpdatableCardState;

  @TokenField({ optional: true })
  funding_token?: string;

  @TextField(MAX_MEMO_LENGTH, { optional: true })
  memo?: string;

  @CentsField({ optional: true, description: 'Cents; 0 is no limit', message: 'spend_limit must be an integer number of cents' })
  spend_limit?: number;

  @OneOfField(SPEND_LIMIT_DURATIONS, { optional: true })
  spend_limit_duration?: SpendLimitDuration;

  /** Sandbox: the card's PIN, kept only as a keyed hash; simulated authorizations may present one. */
  @PinField({ optional: true, description: 'Sandbox: kept only as a keyed hash' })
  pin?: string;
}

export class CardTokenParam {
  @TokenField()
  card_token!: string;
}

/** Free text matched as given: only its length can be wrong. */
function MemoFilterParameter(): PropertyDecorator {
  const description = 'Cards whose memo contains this text (letter case ignored)';
  return valueField({ type: 'string', maxLength: MAX_MEMO_LENGTH }, { optional: true, description }, [IsString({ message: 'memo must be a single text' }), MaxLength(MAX_MEMO_LENGTH)]);
}

/** Query of GET /v1/cards (spec 4.7). Query strings arrive as text: numbers are converted, then checked. */
export class ListCardsParams extends PagedDateRangeParams {
  @TokenField({ optional: true, description: 'The program token returns every card; any other token none' })
  account_token?: string;

  /** Lithic's card list filter. */
  @OneOfField(CARD_STATES, { optional: true })
  state?: CardState;

  /** Lithic's card list filter: cards whose memo contains this text, in any letter case. */
  @MemoFilterParameter()
  memo?: string;
}
