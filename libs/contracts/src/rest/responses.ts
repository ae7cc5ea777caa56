/** Response shapes of the REST API, as the spec names their fields. */
export interface FundingSourceResponse {
  account_name: string;
  created: string;
  last_four: string;
  nickname: string;
  state: string;
  token: string;
  type: string;
}

export interface CardResponse extends LithicCardFields {
  created: string;
  cvv: string;
  funding: FundingSourceResponse;
  exp_month: string;
  exp_year: string;
  hostname: string;
  last_four: string;
  memo: string;
  pan: string;
  spend_limit: number;
  spend_limit_duration: string;
  state: string;
  token: string;
  type: string;
}

/** PIN states of Lithic's cards; BLOCKED never occurs here (failed PINs are not counted). */
export type PinStatus = 'OK' | 'BLOCKED' | 'NOT_SET';

/**
 * Fields Lithic's card carries beyond the spec's (the SDK's NonPCICard). A program is both the
 * account its cards belong to and the card program they are issued on; the rest is what a sandbox
 * card of a program without physical cards, art or auth rules shows (docs/decisions.md).
 */
export interface LithicCardFields {
  account_token: string;
  card_program_token: string;
  pin_status: PinStatus;
  auth_rule_tokens: string[];
  cardholder_currency: string;
  pending_commands: string[];
  bulk_order_token: null;
  digital_card_art_token: null;
  network_program_token: null;
  product_id: null;
  replacement_for: null;
  substatus: null;
}

/**
 * A list answer. Paged by `page` it carries the spec's `page`, `total_entries` and `total_pages`;
 * paged by cursor, Lithic's `{data, has_more}` alone. `has_more` is on both: items follow this page.
 */
export interface Page<T> {
  data: T[];
  has_more: boolean;
  page?: number;
  total_entries?: number;
  total_pages?: number;
}

/** Every error answer; spec section 7's 422 shape, used for every status. */
export interface ErrorBody {
  debugging_request_id: string;
  message: string;
  /** Only on a declined simulated authorization that created a transaction. */
  token?: string;
}

export const DEFAULT_PAGE_SIZE = 50;

/** Spec timestamp forms: cards use yyyy-MM-ddThh:mm:ssZ, funding sources yyyy-MM-dd hh:mm:ss. */
export function isoSeconds(date: Date): string {
  // toISOString always ends in '.sssZ' (also for years past 9999): cut, not a regular expression, as a list page writes hundreds.
  return `${date.toISOString().slice(0, -5)}Z`;
}

export function fundingTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '');
}

export interface MerchantResponse {
  acceptor_id: string;
  city: string;
  country: string;
  descriptor: string;
  mcc: string;
  state: string;
  /** Lithic's merchant fields that simulated traffic does not carry. */
  acquiring_institution_id: string;
  phone_number: null;
  postal_code: null;
  street_address: null;
}

export interface TransactionEventResponse {
  amount: number;
  created: string;
  result: string;
  token: string;
  type: string;
  /** Lithic's per-event fields, beside the spec's. */
  amounts: TransactionEventAmountsResponse;
  detailed_results: string[];
  effective_polarity: 'CREDIT' | 'DEBIT';
  /** No card network carried simulated traffic (as the transaction's `network`). */
  network_info: null;
  /** No auth rules here: nothing to report. */
  rule_results: never[];
}

/** Lithic's per-event amounts: the event's amount in each currency; `settlement` only for events that move funds. */
export interface TransactionEventAmountsResponse {
  cardholder: MoneyAmount & { conversion_rate: string };
  merchant: MoneyAmount;
  settlement: (MoneyAmount & { conversion_rate: string }) | null;
}

export interface MoneyAmount {
  amount: number;
  currency: string;
}

/** Lithic's `amounts`: the transaction in the cardholder's, the merchant's and the settlement currency, and what is held. */
export interface TransactionAmountsResponse {
  cardholder: MoneyAmount & { conversion_rate: string };
  hold: MoneyAmount;
  merchant: MoneyAmount;
  settlement: MoneyAmount;
}

/** Lithic's point-of-sale facts. Simulated traffic carries none, so every value says UNKNOWN. */
export interface PosResponse {
  entry_mode: { card: string; cardholder: string; pan: string; pin_entered: boolean };
  terminal: {
    attended: boolean;
    card_retention_capable: boolean;
    on_premise: boolean;
    operator: string;
    partial_approval_capable: boolean;
    pin_capability: string;
    type: string;
    acceptor_terminal_id: string | null;
  };
}

/** Fields Lithic's transaction carries beyond the spec's (the SDK's Transaction). */
export interface LithicTransactionFields {
  account_token: string;
  card_token: string;
  updated: string;
  amounts: TransactionAmountsResponse;
  pos: PosResponse;
  network: null;
  network_risk_score: null;
  acquirer_reference_number: null;
  avs: null;
  cardholder_authentication: null;
  financial_account_token: null;
  service_location: null;
  token_info: null;
  tags: Record<string, string>;
}

export interface TransactionResponse extends LithicTransactionFields {
  acquirer_fee: number;
  amount: number;
  authorization_amount: number;
  authorization_code: string;
  card: CardResponse;
  created: string;
  events: TransactionEventResponse[];
  funding: { amount: number; token: string; type: string }[];
  merchant: MerchantResponse;
  merchant_amount: number;
  merchant_authorization_amount: number;
  merchant_currency: string;
  result: string;
  settled_amount: number;
  status: string;
  token: string;
}

/** Answer of the simulation endpoints (spec 4.1-4.4). */
export interface SimulationResponse {
  debugging_request_id: string;
  token?: string;
}

/** GET /v1/simulate/clock: the calling program's test clock. */
export interface ProgramClockResponse {
  /** Business time: what every time-dependent rule of the program reads now. */
  now: string;
  /** The wall clock at the same moment. */
  wall_time: string;
  /** The instant of the last advance; null if the clock was never advanced (it is the wall clock). */
  frozen_time: string | null;
  /** Wall time of the last advance; null if never advanced. */
  advanced_at: string | null;
}

export interface AccountResponse {
  token: string;
  name: string;
  state: string;
  created: string;
  /** Ours (transaction, weekly, monthly) and Lithic's (daily, monthly, lifetime) side by side; monthly is the same limit. */
  spend_limit: { transaction: number; weekly: number; monthly: number; daily: number; lifetime: number };
  velocity_limit: { max_authorizations: number; window_seconds: number } | null;
  blocked_merchants: string[];
}

/**
 * Lithic's AccountSpendLimits over the program's platform limits: per window that has a limit, the
 * limit, what counts against it and what is left. `monthly` is Lithic's key; `weekly` is ours,
 * beside it. Lithic's `daily` and `lifetime` never appear: the platform has no such limit.
 */
export interface AccountSpendLimitsResponse {
  available_spend_limit: Partial<Record<'weekly' | 'monthly', number>>;
  spend_limit: Partial<Record<'weekly' | 'monthly', number>>;
  spend_velocity: Partial<Record<'weekly' | 'monthly', bigint>>;
}

/**
 * Lithic's CardSpendLimits: per duration key (daily, monthly, annually, forever; only the card's own
 * duration is present), the configured limit, what counts against it (spend_velocity) and what is
 * left. A card without a window (no limit, or TRANSACTION) answers only an empty `available_spend_limit`.
 */
export interface CardSpendLimitsResponse {
  available_spend_limit: Partial<Record<'daily' | 'monthly' | 'annually' | 'forever', number>>;
  spend_limit?: Partial<Record<'daily' | 'monthly' | 'annually' | 'forever', number>>;
  spend_velocity?: Partial<Record<'daily' | 'monthly' | 'annually' | 'forever', bigint>>;
}
