/**
 * What an Auth Rule (Lithic's Auth Rules v2) says, in Lithic's own words: the rule types this service
 * evaluates on the authorization stream and their parameters, spelled as Lithic's SDK spells them
 * (`lithic/resources/auth-rules/v2`). The parameters are kept in the API's snake_case on purpose: they
 * are the rule's own language, written by the user, recorded as given and shown back unchanged.
 */

/** CONDITIONAL_BLOCK is Lithic's deprecated name for a CONDITIONAL_ACTION that declines. */
export const AUTH_RULE_TYPES = ['CONDITIONAL_ACTION', 'CONDITIONAL_BLOCK', 'VELOCITY_LIMIT', 'MERCHANT_LOCK'] as const;
export type AuthRuleType = (typeof AUTH_RULE_TYPES)[number];

/** Lithic's other event streams (3DS, tokenization, ACH) have no counterpart here: every rule runs on AUTHORIZATION. */
export const AUTH_RULE_EVENT_STREAM = 'AUTHORIZATION';

/**
 * The conditional attributes a simulated authorization carries the data for. Lithic's others (RISK_SCORE,
 * LIABILITY_SHIFT, ADDRESS_MATCH, TRANSACTION_INITIATOR, SERVICE_LOCATION_POSTAL_CODE, the z-score and
 * average family, THREE_DS_SUCCESS_RATE, TRAVEL_SPEED, DISTANCE_FROM_LAST_TRANSACTION) would need data
 * no authorization here has, so a rule naming one is refused rather than silently never matching.
 */
export const TEXT_ATTRIBUTES = [
  'MCC',
  'COUNTRY',
  'CURRENCY',
  'MERCHANT_ID',
  'DESCRIPTOR',
  'SERVICE_LOCATION_STATE',
  'PAN_ENTRY_MODE',
  'CARD_STATE',
  'PIN_ENTERED',
  'PIN_STATUS',
  'WALLET_TYPE',
  'IS_FIRST_TRANSACTION',
  'IS_NEW_COUNTRY',
  'IS_NEW_MCC',
  'IS_NEW_MERCHANT',
] as const;
export const NUMBER_ATTRIBUTES = [
  'TRANSACTION_AMOUNT',
  'CASH_AMOUNT',
  'CARD_TRANSACTION_COUNT_15M',
  'CARD_TRANSACTION_COUNT_1H',
  'CARD_TRANSACTION_COUNT_24H',
  'CARD_DECLINE_COUNT_15M',
  'CARD_DECLINE_COUNT_1H',
  'CARD_DECLINE_COUNT_24H',
  'CARD_AGE',
  'ACCOUNT_AGE',
  'CONSECUTIVE_DECLINES',
  'TIME_SINCE_LAST_TRANSACTION',
  'DISTINCT_COUNTRY_COUNT',
] as const;
export type TextAttribute = (typeof TEXT_ATTRIBUTES)[number];
export type NumberAttribute = (typeof NUMBER_ATTRIBUTES)[number];
export type ConditionalAttribute = TextAttribute | NumberAttribute;
export const CONDITIONAL_ATTRIBUTES: readonly ConditionalAttribute[] = [...TEXT_ATTRIBUTES, ...NUMBER_ATTRIBUTES];

/** Lithic's history attributes that require `parameters.scope`; this service answers them for the CARD scope. */
export const SCOPED_ATTRIBUTES: readonly ConditionalAttribute[] = [
  'IS_NEW_COUNTRY',
  'IS_NEW_MCC',
  'IS_FIRST_TRANSACTION',
  'CONSECUTIVE_DECLINES',
  'TIME_SINCE_LAST_TRANSACTION',
  'DISTINCT_COUNTRY_COUNT',
];

/**
 * Lithic lists fifteen operations without saying which suits which attribute. A text attribute takes
 * the list, pattern and equality operations; a number the comparisons. IS_AFTER and IS_BEFORE compare
 * times and CONTAINS_* compare lists: no attribute here is a time or a list, so a rule using them is
 * refused (docs/decisions.md, Auth rules).
 */
export const TEXT_OPERATIONS = ['IS_ONE_OF', 'IS_NOT_ONE_OF', 'MATCHES', 'DOES_NOT_MATCH', 'IS_EQUAL_TO', 'IS_NOT_EQUAL_TO'] as const;
export const NUMBER_OPERATIONS = ['IS_EQUAL_TO', 'IS_NOT_EQUAL_TO', 'IS_GREATER_THAN', 'IS_GREATER_THAN_OR_EQUAL_TO', 'IS_LESS_THAN', 'IS_LESS_THAN_OR_EQUAL_TO'] as const;
export const CONDITIONAL_OPERATIONS = [
  'IS_ONE_OF',
  'IS_NOT_ONE_OF',
  'MATCHES',
  'DOES_NOT_MATCH',
  'IS_EQUAL_TO',
  'IS_NOT_EQUAL_TO',
  'IS_GREATER_THAN',
  'IS_GREATER_THAN_OR_EQUAL_TO',
  'IS_LESS_THAN',
  'IS_LESS_THAN_OR_EQUAL_TO',
  'IS_AFTER',
  'IS_BEFORE',
  'CONTAINS_ANY',
  'CONTAINS_ALL',
  'CONTAINS_NONE',
] as const;
export type TextOperation = (typeof TEXT_OPERATIONS)[number];
export type NumberOperation = (typeof NUMBER_OPERATIONS)[number];
export type ConditionalOperation = (typeof CONDITIONAL_OPERATIONS)[number];

export type ConditionalValue = string | number | readonly string[];

export interface ConditionParameters {
  readonly scope?: 'CARD' | 'ACCOUNT' | 'BUSINESS_ACCOUNT';
  readonly interval?: 'LIFETIME' | '7D' | '30D' | '90D';
  readonly unit?: 'MPH' | 'KPH' | 'MILES' | 'KILOMETERS';
}

export interface AuthRuleCondition {
  readonly attribute: ConditionalAttribute;
  readonly operation: ConditionalOperation;
  readonly value: ConditionalValue;
  readonly parameters?: ConditionParameters;
}

/** CHALLENGE asks the cardholder to confirm; there is no cardholder to ask here, so it declines (CARDHOLDER_CHALLENGED). */
export type ConditionalAction = 'DECLINE' | 'CHALLENGE';

export interface ConditionalActionParameters {
  readonly action: ConditionalAction;
  readonly conditions: readonly AuthRuleCondition[];
}

export interface ConditionalBlockParameters {
  readonly conditions: readonly AuthRuleCondition[];
}

export const PAN_ENTRY_MODES = [
  'AUTO_ENTRY',
  'BAR_CODE',
  'CONTACTLESS',
  'CREDENTIAL_ON_FILE',
  'ECOMMERCE',
  'ERROR_KEYED',
  'ERROR_MAGNETIC_STRIPE',
  'ICC',
  'KEY_ENTERED',
  'MAGNETIC_STRIPE',
  'MANUAL',
  'OCR',
  'SECURE_CARDLESS',
  'UNSPECIFIED',
  'UNKNOWN',
] as const;
export type PanEntryMode = (typeof PAN_ENTRY_MODES)[number];

export const WALLET_TYPES = ['APPLE_PAY', 'GOOGLE_PAY', 'SAMSUNG_PAY', 'MASTERPASS', 'MERCHANT', 'OTHER', 'NONE'] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

export interface VelocityLimitFilters {
  readonly exclude_countries?: readonly string[] | null;
  readonly exclude_mccs?: readonly string[] | null;
  readonly include_countries?: readonly string[] | null;
  readonly include_mccs?: readonly string[] | null;
  readonly include_pan_entry_modes?: readonly PanEntryMode[] | null;
}

/** Fixed windows start at 00:00 in US Eastern Time, as Lithic's do; CUSTOM is a trailing window in seconds. */
export type VelocityLimitPeriod =
  | { readonly type: 'CUSTOM'; readonly duration: number }
  | { readonly type: 'DAY' }
  | { readonly type: 'WEEK'; readonly day_of_week?: number }
  | { readonly type: 'MONTH'; readonly day_of_month?: number }
  | { readonly type: 'YEAR'; readonly month?: number; readonly day_of_month?: number };

export const VELOCITY_MIN_TRAILING_SECONDS = 10;
export const VELOCITY_MAX_TRAILING_SECONDS = 7_776_000;

export interface VelocityLimitParameters {
  readonly period: VelocityLimitPeriod;
  readonly scope: 'CARD' | 'ACCOUNT';
  readonly filters?: VelocityLimitFilters;
  readonly limit_amount?: number | null;
  readonly limit_count?: number | null;
}

export interface MerchantLockMerchant {
  readonly comment?: string;
  readonly descriptor?: string;
  readonly merchant_id?: string;
}

export interface MerchantLockParameters {
  readonly merchants: readonly MerchantLockMerchant[];
}

/** A rule's parameters together with its type: the one union every evaluation switches over. */
export type AuthRuleDefinition =
  | { readonly type: 'CONDITIONAL_ACTION'; readonly parameters: ConditionalActionParameters }
  | { readonly type: 'CONDITIONAL_BLOCK'; readonly parameters: ConditionalBlockParameters }
  | { readonly type: 'VELOCITY_LIMIT'; readonly parameters: VelocityLimitParameters }
  | { readonly type: 'MERCHANT_LOCK'; readonly parameters: MerchantLockParameters };

export type AuthRuleParameters = AuthRuleDefinition['parameters'];
