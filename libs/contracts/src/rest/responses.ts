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

export interface CardResponse {
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
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
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
}

export interface TransactionEventResponse {
  amount: number;
  created: string;
  result: string;
  token: string;
  type: string;
}

export interface TransactionResponse {
  acquirer_fee: number;
  amount: number;
  authorization_amount: number;
  authorization_code: string;
  card: CardResponse & { auth_rule_tokens: string[] };
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
  spend_limit: { transaction: number; weekly: number; monthly: number };
  velocity_limit: { max_authorizations: number; window_seconds: number } | null;
  blocked_merchants: string[];
}
