import type { AuthRuleCondition } from './auth-rule-parameters';

/**
 * Whether a condition holds for an attribute's value. A value that does not evaluate (null) holds no
 * condition, negative ones included: a rule about the last transaction says nothing about a card that
 * has none. Text compares exactly as given (codes are upper case in Lithic's lists); a pattern
 * matches anywhere in the text unless it anchors itself with ^ and $.
 */
export function conditionHolds(condition: AuthRuleCondition, value: string | number | null): boolean {
  if (value === null) return false;
  const expected = condition.value;
  switch (condition.operation) {
    case 'IS_ONE_OF':
      return Array.isArray(expected) && expected.includes(String(value));
    case 'IS_NOT_ONE_OF':
      return Array.isArray(expected) && !expected.includes(String(value));
    case 'MATCHES':
      return typeof expected === 'string' && new RegExp(expected).test(String(value));
    case 'DOES_NOT_MATCH':
      return typeof expected === 'string' && !new RegExp(expected).test(String(value));
    case 'IS_EQUAL_TO':
      return value === expected;
    case 'IS_NOT_EQUAL_TO':
      return value !== expected;
    case 'IS_GREATER_THAN':
      return typeof value === 'number' && typeof expected === 'number' && value > expected;
    case 'IS_GREATER_THAN_OR_EQUAL_TO':
      return typeof value === 'number' && typeof expected === 'number' && value >= expected;
    case 'IS_LESS_THAN':
      return typeof value === 'number' && typeof expected === 'number' && value < expected;
    case 'IS_LESS_THAN_OR_EQUAL_TO':
      return typeof value === 'number' && typeof expected === 'number' && value <= expected;
    case 'IS_AFTER':
    case 'IS_BEFORE':
    case 'CONTAINS_ANY':
    case 'CONTAINS_ALL':
    case 'CONTAINS_NONE':
      // Refused when a rule is written (auth-rule-definition.ts): no attribute here is a time or a list.
      return false;
  }
}
