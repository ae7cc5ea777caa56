import { IsString, ValidateBy } from 'class-validator';
import { PAN_ENTRY_MODES, WALLET_TYPES, type PanEntryMode, type WalletType } from '@ledger/domain';
import { TokenField } from './token-field';
import { parseInstantParameter } from './query-parameters';
import { CentsField, ExpiryMonthField, ExpiryYearField, FieldOptions, FlagField, OneOfField, PatternField, PinField, TextField, valueField } from './value-fields';

/** A simulated amount in cents, from `minimum`; anything else is refused with one message. */
function AmountField(minimum: number, options: FieldOptions = {}): PropertyDecorator {
  const message = `amount must be an integer number of cents, ${minimum} or more`;
  return CentsField({ ...options, minimum, message, belowMinimum: message });
}
export const MAX_DESCRIPTOR_LENGTH = 255;
/** Lithic's `status` of simulateAuthorization: its message kinds (TransactionSimulateAuthorizationParams). */
export const SIMULATED_AUTHORIZATION_STATUSES = ['AUTHORIZATION', 'BALANCE_INQUIRY', 'CREDIT_AUTHORIZATION', 'FINANCIAL_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION'] as const;
export type SimulatedAuthorizationStatus = (typeof SIMULATED_AUTHORIZATION_STATUSES)[number];
export const SIMULATED_VOID_TYPES = ['AUTHORIZATION_REVERSAL', 'AUTHORIZATION_EXPIRY'] as const;

/** POST /v1/simulate/authorize (spec 4.1) plus the optional merchant and card-detail fields of issue 3. */
export class SimulateAuthorizeRequest {
  @AmountField(0, { description: 'Cents' })
  amount!: number;

  @TextField(MAX_DESCRIPTOR_LENGTH, { description: 'Merchant descriptor', notEmpty: 'descriptor must not be empty' })
  descriptor!: string;

  @PatternField(/^\d{16}$/, 'pan must be a 16-digit card number')
  pan!: string;

  @TokenField({ optional: true, description: "Extension (not in Lithic's simulate): the card's wallet token the authorization comes through; the transaction shows it in token_info, and a token that is not ACTIVE declines (CARD_PAUSED, or CARD_CLOSED once DEACTIVATED)" })
  tokenization_token?: string;

  @PatternField(/^\d{4}$/, 'mcc must be a four-digit merchant category code', { optional: true, default: '5999' })
  mcc?: string;

  @TextField(64, { optional: true })
  merchant_acceptor_id?: string;

  @TextField(64, { optional: true, description: 'Merchant city (Lithic: merchant_acceptor_city)' })
  city?: string;

  @TextField(64, { optional: true, description: 'Merchant state (Lithic: merchant_acceptor_state)' })
  state?: string;

  @PatternField(/^[A-Z]{3}$/, 'country must be a three-letter ISO 3166 alpha-3 code', { optional: true, default: 'USA', description: 'ISO 3166 alpha-3 (Lithic: merchant_acceptor_country)' })
  country?: string;

  @PatternField(/^[A-Z]{3}$/, 'merchant_currency must be a three-letter ISO 4217 code', { optional: true, default: 'USD' })
  merchant_currency?: string;

  @CentsField({ optional: true, description: 'In the smallest unit of merchant_currency; amount by default', message: 'merchant_amount must be an integer in the smallest unit of merchant_currency' })
  merchant_amount?: number;

  @PatternField(/^\d{3}$/, 'cvv must be three digits', { optional: true, description: 'Checked when given' })
  cvv?: string;

  @ExpiryMonthField({ optional: true, description: 'Checked when given' })
  exp_month?: string;

  @ExpiryYearField({ optional: true, description: 'Checked when given' })
  exp_year?: string;

  @PinField({ optional: true, description: 'Checked when given' })
  pin?: string;

  @TokenField({ optional: true, description: "Ours, not Lithic's: the card's 3DS authentication this purchase follows, shown as the transaction's cardholder_authentication" })
  three_ds_authentication_token?: string;

  /** Whether the program's authorization endpoint may approve a smaller amount. */
  @FlagField({ optional: true })
  partial_approval_capable?: boolean;

  /** Lithic's SDK name for `city`; both may be sent if they agree (docs/decisions.md, Lithic SDK). */
  @TextField(64, { optional: true, description: 'Alias of city (Lithic SDK)' })
  merchant_acceptor_city?: string;

  /** Lithic's SDK name for `state`. */
  @TextField(64, { optional: true, description: 'Alias of state (Lithic SDK)' })
  merchant_acceptor_state?: string;

  /** Lithic's SDK name for `country`. */
  @PatternField(/^[A-Z]{3}$/, 'merchant_acceptor_country must be a three-letter ISO 3166 alpha-3 code', { optional: true, description: 'Alias of country (Lithic SDK)' })
  merchant_acceptor_country?: string;

  /**
   * Lithic's kind of simulated message: AUTHORIZATION (its default, a dual-message purchase),
   * BALANCE_INQUIRY (amount 0, spends nothing), FINANCIAL_AUTHORIZATION (a debit cleared at once),
   * CREDIT_AUTHORIZATION (a refund waiting for its clearing) and FINANCIAL_CREDIT_AUTHORIZATION (a
   * refund credited at once); docs/api.md says what each does to the card's spend.
   */
  @OneOfField(SIMULATED_AUTHORIZATION_STATUSES, {
    optional: true,
    default: 'AUTHORIZATION',
    description: 'Lithic SDK field: the kind of message (AUTHORIZATION, BALANCE_INQUIRY, CREDIT_AUTHORIZATION, FINANCIAL_AUTHORIZATION, FINANCIAL_CREDIT_AUTHORIZATION)',
  })
  status?: SimulatedAuthorizationStatus;

  /**
   * Point-of-sale facts Lithic's simulate does not take (its transactions show them as
   * `pos.entry_mode.pan`, `token_info.wallet_type`, `cash_amount`): extension fields, so that the
   * Auth Rules attributes PAN_ENTRY_MODE, WALLET_TYPE and CASH_AMOUNT can be exercised.
   */
  @OneOfField(PAN_ENTRY_MODES, { optional: true, description: 'Extension (not in Lithic\'s simulate): how the PAN was entered, as Lithic\'s pos.entry_mode.pan; UNKNOWN when not given' })
  pan_entry_mode?: PanEntryMode;

  @OneOfField(WALLET_TYPES, { optional: true, description: 'Extension (not in Lithic\'s simulate): the digital wallet, as Lithic\'s token_info.wallet_type; NONE when not given' })
  wallet_type?: WalletType;

  @CentsField({ optional: true, description: 'Extension (not in Lithic\'s simulate): cents of the amount taken as cash, at most amount; 0 when not given', message: 'cash_amount must be an integer number of cents, 0 or more', belowMinimum: 'cash_amount must be an integer number of cents, 0 or more' })
  cash_amount?: number;
}

/**
 * POST /v1/simulate/credit_authorization_advice (Lithic's simulateCreditAuthorizationAdvice): the
 * network approved a refund on the card's behalf; it waits for its clearing. The merchant fields are
 * Lithic's names for them.
 */
export class SimulateCreditAuthorizationAdviceRequest {
  @AmountField(1, { description: 'Cents, positive; the transaction shows it negative, as a credit' })
  amount!: number;

  @TextField(MAX_DESCRIPTOR_LENGTH, { description: 'Merchant descriptor', notEmpty: 'descriptor must not be empty' })
  descriptor!: string;

  @PatternField(/^\d{16}$/, 'pan must be a 16-digit card number')
  pan!: string;

  @PatternField(/^\d{4}$/, 'mcc must be a four-digit merchant category code', { optional: true, default: '5999' })
  mcc?: string;

  @TextField(64, { optional: true })
  merchant_acceptor_id?: string;

  @TextField(64, { optional: true, description: 'Merchant city' })
  merchant_acceptor_city?: string;

  @TextField(64, { optional: true, description: 'Merchant state' })
  merchant_acceptor_state?: string;

  @PatternField(/^[A-Z]{3}$/, 'merchant_acceptor_country must be a three-letter ISO 3166 alpha-3 code', { optional: true, default: 'USA', description: 'ISO 3166 alpha-3' })
  merchant_acceptor_country?: string;
}

/** POST /v1/simulate/return (spec 4.4). */
export class SimulateReturnRequest {
  @AmountField(1, { description: 'Cents' })
  amount!: number;

  @TextField(MAX_DESCRIPTOR_LENGTH, { notEmpty: 'descriptor must not be empty' })
  descriptor!: string;

  @PatternField(/^\d{16}$/, 'pan must be a 16-digit card number')
  pan!: string;
}

/** POST /v1/simulate/authorization_advice: the new authorized amount is what an advice says, so it is required (as in Lithic). */
export class SimulateTransactionAmountRequest {
  @TokenField({ description: 'The transaction token from /v1/simulate/authorize' })
  token!: string;

  @AmountField(1, { description: 'Cents' })
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

  @AmountField(1, { optional: true, description: 'Cents; the full pending amount when absent' })
  amount?: number;
}

/**
 * POST /v1/simulate/void (spec 4.2): without `amount`, the whole pending amount is voided. `type` is
 * the Lithic SDK's: AUTHORIZATION_REVERSAL (its default) is the merchant's void, recorded as the
 * spec's VOID; AUTHORIZATION_EXPIRY expires the authorization whole, as expire_authorization does
 * (an amount with it must be all that is pending).
 */
export class SimulateVoidRequest extends SimulateClearingRequest {
  @OneOfField(SIMULATED_VOID_TYPES, {
    optional: true,
    default: 'AUTHORIZATION_REVERSAL',
    description: 'Lithic SDK field: AUTHORIZATION_REVERSAL voids (event VOID); AUTHORIZATION_EXPIRY expires the whole pending amount (event AUTHORIZATION_EXPIRY, status EXPIRED)',
    message: 'type must be AUTHORIZATION_REVERSAL or AUTHORIZATION_EXPIRY',
  })
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

/** An RFC 3339 instant, kept as written (the clock reads it with the strict instant parser). */
function FrozenTimeField(): PropertyDecorator {
  const description = "RFC 3339 instant (UTC `Z` or an offset) to move the program's clock to; not before the clock's now. The clock keeps running from there";
  const message = 'frozen_time must be an RFC 3339 instant, YYYY-MM-DDThh:mm:ss[.fraction] with Z or an offset';
  return valueField({ type: String, format: 'date-time' }, { description }, [IsString(), ValidateBy({ name: 'instant', validator: { validate: (value: unknown) => parseInstantParameter(value) !== null, defaultMessage: () => message } })]);
}

/** POST /v1/simulate/clock/advance: move the calling program's test clock forward to this instant. */
export class SimulateClockAdvanceRequest {
  @FrozenTimeField()
  frozen_time!: string;
}
