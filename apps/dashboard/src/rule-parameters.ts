import { centsToInput, parseMoney } from './money';
import type { RuleCondition } from './rule-words';

/**
 * An auth rule's parameters as a form holds them, and back: what a person types for each rule type
 * (conditions, a velocity limit, merchants a line, or JSON) to the parameters the API takes, in
 * Lithic's shapes, and a version's parameters back to the form so a new draft starts from it. The
 * attribute and operation lists are the ones the service evaluates (docs/decisions.md, Auth rules).
 */

export const FORM_RULE_TYPES: readonly [string, string][] = [
  ['CONDITIONAL_ACTION', 'Conditional action: decline when conditions hold'],
  ['VELOCITY_LIMIT', 'Velocity limit: at most so many or so much in a period'],
  ['MERCHANT_LOCK', 'Merchant lock: only at these merchants'],
  ['CONDITIONAL_BLOCK', 'Conditional block (deprecated), as JSON'],
];

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
];
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
];
export const TEXT_OPERATIONS = ['IS_ONE_OF', 'IS_NOT_ONE_OF', 'IS_EQUAL_TO', 'IS_NOT_EQUAL_TO', 'MATCHES', 'DOES_NOT_MATCH'];
export const NUMBER_OPERATIONS = ['IS_GREATER_THAN', 'IS_GREATER_THAN_OR_EQUAL_TO', 'IS_LESS_THAN', 'IS_LESS_THAN_OR_EQUAL_TO', 'IS_EQUAL_TO', 'IS_NOT_EQUAL_TO'];
/** Lithic requires `parameters.scope` on these history attributes; the card's own history is the one answered here. */
const SCOPED_ATTRIBUTES = new Set(['IS_NEW_COUNTRY', 'IS_NEW_MCC', 'IS_FIRST_TRANSACTION', 'CONSECUTIVE_DECLINES', 'TIME_SINCE_LAST_TRANSACTION', 'DISTINCT_COUNTRY_COUNT']);
export const MONEY_ATTRIBUTES = new Set(['TRANSACTION_AMOUNT', 'CASH_AMOUNT']);
export const PERIODS: [string, string][] = [
  ['CUSTOM', 'trailing seconds'],
  ['DAY', 'day'],
  ['WEEK', 'week'],
  ['MONTH', 'month'],
  ['YEAR', 'year'],
];

export const isNumberAttribute = (attribute: string) => NUMBER_ATTRIBUTES.includes(attribute);

export interface ConditionRow {
  attribute: string;
  operation: string;
  value: string;
}

/** Everything the form holds, for every type at once, so switching type keeps what was typed. */
export interface ParametersForm {
  action: 'DECLINE' | 'CHALLENGE';
  conditions: ConditionRow[];
  period: string;
  periodSeconds: string;
  limitCount: string;
  limitAmount: string;
  includeMccs: string;
  excludeMccs: string;
  includeCountries: string;
  excludeCountries: string;
  merchants: string;
  json: string;
}

export const BLANK_PARAMETERS: ParametersForm = {
  action: 'DECLINE',
  conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: '' }],
  period: 'DAY',
  periodSeconds: '3600',
  limitCount: '',
  limitAmount: '',
  includeMccs: '',
  excludeMccs: '',
  includeCountries: '',
  excludeCountries: '',
  merchants: '',
  json: '{\n  "conditions": []\n}',
};

const list = (text: string) =>
  text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);

export function conditionOf(row: ConditionRow, index: number): RuleCondition {
  const where = `Condition ${index + 1}`;
  let value: RuleCondition['value'];
  if (isNumberAttribute(row.attribute)) {
    const number = MONEY_ATTRIBUTES.has(row.attribute) ? parseMoney(row.value) : row.value.trim() === '' ? null : Number(row.value);
    if (number === null || !Number.isFinite(number)) throw new Error(`${where}: the value must be ${MONEY_ATTRIBUTES.has(row.attribute) ? 'an amount such as 25.00' : 'a number'}`);
    value = number;
  } else if (row.operation === 'IS_ONE_OF' || row.operation === 'IS_NOT_ONE_OF') {
    value = list(row.value);
    if (value.length === 0) throw new Error(`${where}: name at least one value (separated by commas)`);
  } else {
    value = row.value.trim();
  }
  const condition: RuleCondition = { attribute: row.attribute, operation: row.operation, value };
  return SCOPED_ATTRIBUTES.has(row.attribute) ? { ...condition, parameters: { scope: 'CARD' } } : condition;
}

function periodOf(form: ParametersForm): object {
  if (form.period !== 'CUSTOM') return { type: form.period };
  const duration = Number(form.periodSeconds);
  if (!Number.isInteger(duration) || duration <= 0) throw new Error('The trailing window must be a whole number of seconds');
  return { type: 'CUSTOM', duration };
}

function velocityOf(form: ParametersForm): object {
  const parameters: Record<string, unknown> = { scope: 'CARD', period: periodOf(form) };
  if (form.limitCount.trim()) {
    const count = Number(form.limitCount);
    if (!Number.isInteger(count) || count < 0) throw new Error('The most authorizations must be a whole number');
    parameters.limit_count = count;
  }
  if (form.limitAmount.trim()) {
    const amount = parseMoney(form.limitAmount);
    if (amount === null) throw new Error('The most spent must be an amount such as 100.00');
    parameters.limit_amount = amount;
  }
  if (parameters.limit_count === undefined && parameters.limit_amount === undefined) throw new Error('Give a most authorizations, a most spent, or both');
  const filters: Record<string, string[]> = {};
  const filter = (name: string, text: string) => list(text).length && (filters[name] = list(text));
  filter('include_mccs', form.includeMccs);
  filter('exclude_mccs', form.excludeMccs);
  filter('include_countries', form.includeCountries);
  filter('exclude_countries', form.excludeCountries);
  return Object.keys(filters).length ? { ...parameters, filters } : parameters;
}

/** A merchant per line: its descriptor, or `id: <merchant id>`. */
function merchantLockOf(form: ParametersForm): object {
  const merchants = form.merchants
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => (/^id:/i.test(line) ? { merchant_id: line.replace(/^id:\s*/i, '') } : { descriptor: line }));
  if (merchants.length === 0) throw new Error('Name at least one merchant');
  return { merchants };
}

const joined = (items: unknown) => (Array.isArray(items) ? items.join(', ') : '');

/** The form filled with a version's parameters, so a new draft starts from the rule as it stands. */
export function formOf(type: string, parameters: any): ParametersForm {
  const form: ParametersForm = { ...BLANK_PARAMETERS, json: JSON.stringify(parameters ?? {}, null, 2) };
  if (!parameters) return form;
  if (type === 'CONDITIONAL_ACTION') {
    const conditions = (parameters.conditions ?? []).map((condition: RuleCondition) => ({
      attribute: condition.attribute,
      operation: condition.operation,
      value: Array.isArray(condition.value) ? condition.value.join(', ') : MONEY_ATTRIBUTES.has(condition.attribute) ? centsToInput(Number(condition.value)) : String(condition.value),
    }));
    return { ...form, action: parameters.action ?? 'DECLINE', conditions };
  }
  if (type === 'VELOCITY_LIMIT') {
    const filters = parameters.filters ?? {};
    return {
      ...form,
      period: parameters.period?.type ?? 'DAY',
      periodSeconds: String(parameters.period?.duration ?? BLANK_PARAMETERS.periodSeconds),
      limitCount: parameters.limit_count == null ? '' : String(parameters.limit_count),
      limitAmount: parameters.limit_amount == null ? '' : centsToInput(parameters.limit_amount),
      includeMccs: joined(filters.include_mccs),
      excludeMccs: joined(filters.exclude_mccs),
      includeCountries: joined(filters.include_countries),
      excludeCountries: joined(filters.exclude_countries),
    };
  }
  if (type === 'MERCHANT_LOCK') {
    const lines = (parameters.merchants ?? []).map((merchant: { descriptor?: string; merchant_id?: string }) => (merchant.descriptor ? merchant.descriptor : `id: ${merchant.merchant_id ?? ''}`));
    return { ...form, merchants: lines.join('\n') };
  }
  return form;
}

/** The parameters the API takes for the type, from the form; an Error says what to fix. */
export function parametersOf(type: string, form: ParametersForm): object {
  if (type === 'CONDITIONAL_ACTION') {
    if (form.conditions.length === 0) throw new Error('Add at least one condition');
    return { action: form.action, conditions: form.conditions.map(conditionOf) };
  }
  if (type === 'VELOCITY_LIMIT') return velocityOf(form);
  if (type === 'MERCHANT_LOCK') return merchantLockOf(form);
  try {
    return JSON.parse(form.json);
  } catch {
    throw new Error('The parameters are not JSON');
  }
}
