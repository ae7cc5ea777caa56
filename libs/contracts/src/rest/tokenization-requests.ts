import { IsInt, Max, Min } from 'class-validator';
import { TOKENIZATION_SOURCES } from '@ledger/domain';
import { CursorPageParams } from './validation';
import { DayOrInstantParameter } from './query-parameters';
import { TokenField } from './token-field';
import { OneOfField, PatternField, TextField, valueField } from './value-fields';

export const WALLET_RECOMMENDED_DECISIONS = ['APPROVED', 'DECLINED', 'REQUIRE_ADDITIONAL_AUTHENTICATION'] as const;
export const TOKENIZATION_CHANNEL_FILTERS = ['DIGITAL_WALLET', 'MERCHANT', 'ALL'] as const;
export const ACTIVATION_METHODS = ['EMAIL_TO_CARDHOLDER_ADDRESS', 'TEXT_TO_CARDHOLDER_NUMBER'] as const;
export const PROVISIONING_WALLETS = ['APPLE_PAY', 'GOOGLE_PAY', 'SAMSUNG_PAY'] as const;
export const WEB_PROVISIONING_WALLETS = ['APPLE_PAY', 'GOOGLE_PAY'] as const;

/** Lithic's wallet scores: 1 (riskiest) to 5. */
function ScoreField(description: string): PropertyDecorator {
  return valueField({ type: 'integer', minimum: 1, maximum: 5 }, { optional: true, description }, [IsInt(), Min(1), Max(5)]);
}

/** POST /v1/simulate/tokenizations: a wallet asks to tokenize the card with this number. */
export class SimulateTokenizationRequest {
  @PatternField(/^\d{16}$/, 'pan must be a 16-digit card number')
  pan!: string;

  @PatternField(/^\d{3}$/, 'cvv must be three digits')
  cvv!: string;

  @PatternField(/^(0[1-9]|1[0-2])\/\d{2}$/, 'expiration_date must be MM/YY')
  expiration_date!: string;

  @OneOfField(TOKENIZATION_SOURCES)
  tokenization_source!: (typeof TOKENIZATION_SOURCES)[number];

  @ScoreField('1 declines the tokenization (ACCOUNT_SCORE_1)')
  account_score?: number;

  @ScoreField('1 declines the tokenization (DEVICE_SCORE_1)')
  device_score?: number;

  @TextField(255, { optional: true, description: 'Taken and not kept: the sandbox has no entities' })
  entity?: string;

  @OneOfField(WALLET_RECOMMENDED_DECISIONS, { optional: true, description: 'APPROVED when absent' })
  wallet_recommended_decision?: (typeof WALLET_RECOMMENDED_DECISIONS)[number];
}

export class TokenizationTokenParam {
  @TokenField()
  tokenization_token!: string;
}

/** GET /v1/tokenizations: Lithic's filters beside its cursor. */
export class ListTokenizationsParams extends CursorPageParams {
  @TokenField({ optional: true, description: "The program's token (an account here is the program); another lists nothing" })
  account_token?: string;

  @TokenField({ optional: true })
  card_token?: string;

  @DayOrInstantParameter({ description: 'Created at or after this instant, or on or after this day (YYYY-MM-DD: its UTC midnight)' })
  begin?: Date;

  @DayOrInstantParameter({ description: 'Created before this instant, or before this day (YYYY-MM-DD: its UTC midnight)' })
  end?: Date;

  @OneOfField(TOKENIZATION_CHANNEL_FILTERS, { optional: true, description: 'DIGITAL_WALLET when absent, as Lithic' })
  tokenization_channel?: (typeof TOKENIZATION_CHANNEL_FILTERS)[number];
}

export class ResendActivationCodeRequest {
  @OneOfField(ACTIVATION_METHODS, { optional: true, description: 'TEXT_TO_CARDHOLDER_NUMBER when absent' })
  activation_method_type?: (typeof ACTIVATION_METHODS)[number];
}

export class UpdateDigitalCardArtRequest {
  @TokenField({ optional: true, description: 'Absent: the program default art' })
  digital_card_art_token?: string;
}

/** POST /v1/cards/{card_token}/provision: the device's details are taken and folded into the sandbox payload. */
export class ProvisionCardRequest {
  @OneOfField(PROVISIONING_WALLETS, { optional: true, description: 'APPLE_PAY when absent' })
  digital_wallet?: (typeof PROVISIONING_WALLETS)[number];

  @TextField(8192, { optional: true })
  certificate?: string;

  @TextField(255, { optional: true })
  client_device_id?: string;

  @TextField(255, { optional: true })
  client_wallet_account_id?: string;

  @TextField(1024, { optional: true })
  nonce?: string;

  @TextField(1024, { optional: true })
  nonce_signature?: string;
}

/** POST /v1/cards/{card_token}/web_provision. */
export class WebProvisionCardRequest {
  @OneOfField(WEB_PROVISIONING_WALLETS, { optional: true, description: 'APPLE_PAY when absent' })
  digital_wallet?: (typeof WEB_PROVISIONING_WALLETS)[number];

  @TextField(255, { optional: true })
  client_device_id?: string;

  @TextField(255, { optional: true })
  client_wallet_account_id?: string;

  @TextField(255, { optional: true })
  server_session_id?: string;
}
