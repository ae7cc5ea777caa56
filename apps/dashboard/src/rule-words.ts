import { money } from './money';

/**
 * An auth rule's parameters and scope in plain words, so a person reads what a rule does without
 * reading its JSON. The shapes are Lithic's (`lithic/resources/auth-rules/v2`); anything this does
 * not know how to say falls back to the JSON itself.
 */

export interface RuleCondition {
  attribute: string;
  operation: string;
  value: string | number | string[];
  parameters?: { scope?: string };
}

/** A rule as `GET /v2/auth_rules` answers it. */
export interface AuthRule {
  token: string;
  name: string | null;
  type: string;
  state: 'ACTIVE' | 'INACTIVE';
  program_level: boolean;
  account_tokens: string[];
  card_tokens: string[];
  excluded_card_tokens?: string[];
  current_version: { version: number; parameters: any } | null;
  draft_version: { version: number; parameters: any } | null;
}

const OPERATION_WORDS: Record<string, string> = {
  IS_ONE_OF: 'is one of',
  IS_NOT_ONE_OF: 'is not one of',
  MATCHES: 'matches',
  DOES_NOT_MATCH: 'does not match',
  IS_EQUAL_TO: 'is',
  IS_NOT_EQUAL_TO: 'is not',
  IS_GREATER_THAN: 'is more than',
  IS_GREATER_THAN_OR_EQUAL_TO: 'is at least',
  IS_LESS_THAN: 'is less than',
  IS_LESS_THAN_OR_EQUAL_TO: 'is at most',
};

/** Attributes whose numbers are money (cents), so they read as money. */
const MONEY_ATTRIBUTES = new Set(['TRANSACTION_AMOUNT', 'CASH_AMOUNT']);

function attributeWords(attribute: string): string {
  return attribute.toLowerCase().replace(/_/g, ' ');
}

function valueWords(attribute: string, value: RuleCondition['value']): string {
  if (Array.isArray(value)) return value.join(', ');
  if (typeof value === 'number' && MONEY_ATTRIBUTES.has(attribute)) return money(value);
  return String(value);
}

export function conditionWords(condition: RuleCondition): string {
  const operation = OPERATION_WORDS[condition.operation] ?? condition.operation.toLowerCase().replace(/_/g, ' ');
  return `${attributeWords(condition.attribute)} ${operation} ${valueWords(condition.attribute, condition.value)}`;
}

function periodWords(period: any): string {
  switch (period?.type) {
    case 'CUSTOM':
      return `in any ${period.duration} seconds`;
    case 'DAY':
      return 'a day (from midnight Eastern)';
    case 'WEEK':
      return `a week (from day ${period.day_of_week ?? 1} of the week)`;
    case 'MONTH':
      return `a month (from day ${period.day_of_month ?? 1} of the month)`;
    case 'YEAR':
      return 'a year';
    default:
      return JSON.stringify(period);
  }
}

function filterWords(filters: any): string {
  if (!filters) return '';
  const parts: string[] = [];
  const list = (name: string, words: string) => filters[name]?.length && parts.push(`${words} ${filters[name].join(', ')}`);
  list('include_mccs', 'only MCC');
  list('exclude_mccs', 'not MCC');
  list('include_countries', 'only in');
  list('exclude_countries', 'not in');
  list('include_pan_entry_modes', 'only entry mode');
  return parts.length ? ` (${parts.join('; ')})` : '';
}

/** What a version's parameters do, in a sentence, for the rule's type. */
export function parametersWords(type: string, parameters: any): string {
  if (!parameters) return '—';
  if (type === 'CONDITIONAL_ACTION' || type === 'CONDITIONAL_BLOCK') {
    const action = parameters.action === 'CHALLENGE' ? 'Challenge' : 'Decline';
    return `${action} when ${(parameters.conditions ?? []).map(conditionWords).join(' and ')}`;
  }
  if (type === 'VELOCITY_LIMIT') {
    const limits = [parameters.limit_count != null && `${parameters.limit_count} authorizations`, parameters.limit_amount != null && money(parameters.limit_amount)].filter(Boolean);
    return `At most ${limits.join(' and ') || 'nothing'} per ${String(parameters.scope ?? 'CARD').toLowerCase()} ${periodWords(parameters.period)}${filterWords(parameters.filters)}`;
  }
  if (type === 'MERCHANT_LOCK') {
    const merchants = (parameters.merchants ?? []).map((merchant: any) => [merchant.descriptor && `"${merchant.descriptor}"`, merchant.merchant_id && `merchant id ${merchant.merchant_id}`].filter(Boolean).join(' / '));
    return `Only at ${merchants.join(', ')}`;
  }
  return JSON.stringify(parameters);
}

/** Who a rule applies to. */
export function scopeWords(rule: Pick<AuthRule, 'program_level' | 'account_tokens' | 'card_tokens' | 'excluded_card_tokens'>): string {
  if (rule.program_level) {
    const excluded = rule.excluded_card_tokens ?? [];
    return excluded.length ? `Every card but ${excluded.length} excluded` : 'Every card';
  }
  if (rule.account_tokens.length) return `The account's cards`;
  return rule.card_tokens.length === 1 ? '1 card' : `${rule.card_tokens.length} cards`;
}
