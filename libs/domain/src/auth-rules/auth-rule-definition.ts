import { AuthRuleParametersInvalid } from './auth-rule-errors';
import {
  AUTH_RULE_TYPES,
  AuthRuleCondition,
  AuthRuleDefinition,
  AuthRuleType,
  CONDITIONAL_ATTRIBUTES,
  ConditionalAttribute,
  ConditionalOperation,
  ConditionParameters,
  MerchantLockMerchant,
  NUMBER_ATTRIBUTES,
  NUMBER_OPERATIONS,
  PAN_ENTRY_MODES,
  SCOPED_ATTRIBUTES,
  TEXT_OPERATIONS,
  VELOCITY_MAX_TRAILING_SECONDS,
  VELOCITY_MIN_TRAILING_SECONDS,
  VelocityLimitFilters,
  VelocityLimitParameters,
  VelocityLimitPeriod,
} from './auth-rule-parameters';

/**
 * A rule's type and parameters as the user sent them, checked once: what passes is a rule the
 * evaluation can run on every authorization without a surprise (a number where a number is compared,
 * a pattern that compiles, a limit that limits). The parameters arrive as the API's JSON, so the check
 * reads them as unknown and keeps only the fields Lithic defines.
 */
export function authRuleDefinition(type: string, parameters: unknown): AuthRuleDefinition {
  const ruleType = ruleTypeOf(type);
  const given = objectAt(parameters, 'parameters');
  switch (ruleType) {
    case 'CONDITIONAL_ACTION': {
      const action = given['action'];
      if (action !== 'DECLINE' && action !== 'CHALLENGE') throw new AuthRuleParametersInvalid('parameters.action must be DECLINE or CHALLENGE', 'parameters.action');
      return { type: ruleType, parameters: { action, conditions: conditionsAt(given['conditions']) } };
    }
    case 'CONDITIONAL_BLOCK':
      return { type: ruleType, parameters: { conditions: conditionsAt(given['conditions']) } };
    case 'VELOCITY_LIMIT':
      return { type: ruleType, parameters: velocityLimit(given) };
    case 'MERCHANT_LOCK':
      return { type: ruleType, parameters: { merchants: merchantsAt(given['merchants']) } };
  }
}

function ruleTypeOf(type: string): AuthRuleType {
  if ((AUTH_RULE_TYPES as readonly string[]).includes(type)) return type as AuthRuleType;
  throw new AuthRuleParametersInvalid(`type must be one of ${AUTH_RULE_TYPES.join(', ')}; got ${type}`, 'type');
}

// ---------------------------------------------------------------- conditions

function conditionsAt(value: unknown): AuthRuleCondition[] {
  if (!Array.isArray(value) || value.length === 0) throw new AuthRuleParametersInvalid('parameters.conditions must be a non-empty list', 'parameters.conditions');
  return value.map((condition, index) => conditionAt(condition, `parameters.conditions[${index}]`));
}

function conditionAt(value: unknown, field: string): AuthRuleCondition {
  const given = objectAt(value, field);
  const attribute = given['attribute'];
  if (typeof attribute !== 'string' || !(CONDITIONAL_ATTRIBUTES as readonly string[]).includes(attribute)) {
    throw new AuthRuleParametersInvalid(`${field}.attribute must be one of ${CONDITIONAL_ATTRIBUTES.join(', ')} (the attributes an authorization here carries); got ${String(attribute)}`, `${field}.attribute`);
  }
  const known = attribute as ConditionalAttribute;
  const operation = operationFor(known, given['operation'], `${field}.operation`);
  const condition: AuthRuleCondition = { attribute: known, operation, value: valueFor(known, operation, given['value'], `${field}.value`) };
  const parameters = conditionParameters(known, given['parameters'], `${field}.parameters`);
  return parameters === undefined ? condition : { ...condition, parameters };
}

export function isNumberAttribute(attribute: ConditionalAttribute): boolean {
  return (NUMBER_ATTRIBUTES as readonly string[]).includes(attribute);
}

/** The operations that suit an attribute: comparisons for numbers, lists, patterns and equality for text. */
export function operationsFor(attribute: ConditionalAttribute): readonly ConditionalOperation[] {
  return isNumberAttribute(attribute) ? NUMBER_OPERATIONS : TEXT_OPERATIONS;
}

function operationFor(attribute: ConditionalAttribute, operation: unknown, field: string): ConditionalOperation {
  const allowed = operationsFor(attribute);
  if (typeof operation === 'string' && (allowed as readonly string[]).includes(operation)) return operation as ConditionalOperation;
  throw new AuthRuleParametersInvalid(`${field} for ${attribute} must be one of ${allowed.join(', ')}; got ${String(operation)}`, field);
}

function valueFor(attribute: ConditionalAttribute, operation: ConditionalOperation, value: unknown, field: string): AuthRuleCondition['value'] {
  if (isNumberAttribute(attribute)) {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    throw new AuthRuleParametersInvalid(`${field} must be a number for ${attribute}`, field);
  }
  switch (operation) {
    case 'IS_ONE_OF':
    case 'IS_NOT_ONE_OF':
      if (Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')) return [...(value as string[])];
      throw new AuthRuleParametersInvalid(`${field} must be a non-empty list of strings for ${operation}`, field);
    case 'MATCHES':
    case 'DOES_NOT_MATCH':
      if (typeof value === 'string' && compiles(value)) return value;
      throw new AuthRuleParametersInvalid(`${field} must be a regular expression for ${operation}`, field);
    case 'IS_EQUAL_TO':
    case 'IS_NOT_EQUAL_TO':
      if (typeof value === 'string') return value;
      throw new AuthRuleParametersInvalid(`${field} must be a string for ${operation} on ${attribute}`, field);
    default:
      throw new AuthRuleParametersInvalid(`${field}: ${operation} is not evaluated here`, field);
  }
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * Lithic requires a scope for the history attributes. The card's own history is what the card's
 * stream holds, so CARD is the scope answered; ACCOUNT would need every card's history at each
 * authorization and is refused rather than answered from the card alone.
 */
function conditionParameters(attribute: ConditionalAttribute, value: unknown, field: string): ConditionParameters | undefined {
  const scoped = SCOPED_ATTRIBUTES.includes(attribute);
  if (value === undefined || value === null) {
    if (scoped) throw new AuthRuleParametersInvalid(`${field}.scope is required for ${attribute}`, `${field}.scope`);
    return undefined;
  }
  const given = objectAt(value, field);
  if (!scoped) return undefined;
  if (given['scope'] !== 'CARD') throw new AuthRuleParametersInvalid(`${field}.scope must be CARD for ${attribute} (a card's own history); got ${String(given['scope'])}`, `${field}.scope`);
  return { scope: 'CARD' };
}

// ---------------------------------------------------------------- velocity limits

function velocityLimit(given: Record<string, unknown>): VelocityLimitParameters {
  const scope = given['scope'];
  if (scope !== 'CARD' && scope !== 'ACCOUNT') throw new AuthRuleParametersInvalid('parameters.scope must be CARD or ACCOUNT', 'parameters.scope');
  const limitAmount = limitAt(given['limit_amount'], 'parameters.limit_amount');
  const limitCount = limitAt(given['limit_count'], 'parameters.limit_count');
  if (limitAmount === null && limitCount === null) throw new AuthRuleParametersInvalid('a velocity limit needs limit_amount or limit_count', 'parameters.limit_amount');
  const parameters: VelocityLimitParameters = { period: periodAt(given['period']), scope, limit_amount: limitAmount, limit_count: limitCount };
  return given['filters'] === undefined || given['filters'] === null ? parameters : { ...parameters, filters: filtersAt(given['filters']) };
}

function limitAt(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new AuthRuleParametersInvalid(`${field} must be a whole number of at least 0`, field);
}

function periodAt(value: unknown): VelocityLimitPeriod {
  const field = 'parameters.period';
  const given = objectAt(value, field);
  switch (given['type']) {
    case 'CUSTOM': {
      const duration = given['duration'];
      if (typeof duration === 'number' && Number.isInteger(duration) && duration >= VELOCITY_MIN_TRAILING_SECONDS && duration <= VELOCITY_MAX_TRAILING_SECONDS) {
        return { type: 'CUSTOM', duration };
      }
      throw new AuthRuleParametersInvalid(`${field}.duration must be whole seconds from ${VELOCITY_MIN_TRAILING_SECONDS} to ${VELOCITY_MAX_TRAILING_SECONDS}`, `${field}.duration`);
    }
    case 'DAY':
      return { type: 'DAY' };
    case 'WEEK': {
      const dayOfWeek = wholeIn(given['day_of_week'], 1, 7, `${field}.day_of_week`);
      return dayOfWeek === undefined ? { type: 'WEEK' } : { type: 'WEEK', day_of_week: dayOfWeek };
    }
    case 'MONTH': {
      const dayOfMonth = wholeIn(given['day_of_month'], 1, 31, `${field}.day_of_month`);
      return dayOfMonth === undefined ? { type: 'MONTH' } : { type: 'MONTH', day_of_month: dayOfMonth };
    }
    case 'YEAR': {
      const month = wholeIn(given['month'], 1, 12, `${field}.month`);
      const dayOfMonth = wholeIn(given['day_of_month'], 1, 31, `${field}.day_of_month`);
      if (month !== undefined && dayOfMonth !== undefined && dayOfMonth > daysInMonthOfALeapYear(month)) {
        throw new AuthRuleParametersInvalid(`${field}: month ${month} has no day ${dayOfMonth}`, `${field}.day_of_month`);
      }
      return { type: 'YEAR', ...(month === undefined ? {} : { month }), ...(dayOfMonth === undefined ? {} : { day_of_month: dayOfMonth }) };
    }
    default:
      throw new AuthRuleParametersInvalid(`${field}.type must be CUSTOM, DAY, WEEK, MONTH or YEAR`, `${field}.type`);
  }
}

function daysInMonthOfALeapYear(month: number): number {
  return new Date(Date.UTC(2024, month, 0)).getUTCDate();
}

function wholeIn(value: unknown, min: number, max: number, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw new AuthRuleParametersInvalid(`${field} must be a whole number from ${min} to ${max}`, field);
}

function filtersAt(value: unknown): VelocityLimitFilters {
  const field = 'parameters.filters';
  const given = objectAt(value, field);
  const filters: Record<string, readonly string[] | null> = {};
  for (const name of ['exclude_countries', 'exclude_mccs', 'include_countries', 'include_mccs', 'include_pan_entry_modes'] as const) {
    const list = given[name];
    if (list === undefined) continue;
    if (list === null) {
      filters[name] = null;
      continue;
    }
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) throw new AuthRuleParametersInvalid(`${field}.${name} must be a list of strings`, `${field}.${name}`);
    if (name === 'include_pan_entry_modes' && !list.every((mode) => (PAN_ENTRY_MODES as readonly string[]).includes(mode))) {
      throw new AuthRuleParametersInvalid(`${field}.${name} must hold only ${PAN_ENTRY_MODES.join(', ')}`, `${field}.${name}`);
    }
    filters[name] = [...(list as string[])];
  }
  return filters as VelocityLimitFilters;
}

// ---------------------------------------------------------------- merchant locks

function merchantsAt(value: unknown): MerchantLockMerchant[] {
  const field = 'parameters.merchants';
  if (!Array.isArray(value) || value.length === 0) throw new AuthRuleParametersInvalid(`${field} must be a non-empty list`, field);
  return value.map((item, index) => {
    const given = objectAt(item, `${field}[${index}]`);
    const merchant: { comment?: string; descriptor?: string; merchant_id?: string } = {};
    for (const name of ['comment', 'descriptor', 'merchant_id'] as const) {
      const text = given[name];
      if (text === undefined || text === null) continue;
      if (typeof text !== 'string') throw new AuthRuleParametersInvalid(`${field}[${index}].${name} must be a string`, `${field}[${index}].${name}`);
      merchant[name] = text;
    }
    if (!merchant.descriptor && !merchant.merchant_id) throw new AuthRuleParametersInvalid(`${field}[${index}] needs a merchant_id or a descriptor`, `${field}[${index}]`);
    return merchant;
  });
}

function objectAt(value: unknown, field: string): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new AuthRuleParametersInvalid(`${field} must be an object`, field);
}
