import { authRuleDefinition } from './auth-rule-definition';
import { AuthRuleParametersInvalid } from './auth-rule-errors';

/** What a rule may say: each type's parameters as Lithic's SDK writes them, and the refusals of what cannot be evaluated. */
const condition = (overrides: object = {}) => ({ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'], ...overrides });
const velocity = (overrides: object = {}) => ({ scope: 'CARD', period: { type: 'DAY' }, limit_count: 3, ...overrides });

describe('auth rule definitions', () => {
  it('keeps a CONDITIONAL_ACTION as given, dropping fields Lithic does not define', () => {
    expect(authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [condition({ extra: 1 })], extra: 2 })).toEqual({
      type: 'CONDITIONAL_ACTION',
      parameters: { action: 'DECLINE', conditions: [condition()] },
    });
  });

  it('keeps a history condition with its CARD scope', () => {
    const isNew = { attribute: 'IS_NEW_COUNTRY', operation: 'IS_EQUAL_TO', value: 'TRUE', parameters: { scope: 'CARD' } };
    expect(authRuleDefinition('CONDITIONAL_BLOCK', { conditions: [isNew] }).parameters).toEqual({ conditions: [isNew] });
  });

  it('keeps a VELOCITY_LIMIT with its period and filters', () => {
    const parameters = { scope: 'ACCOUNT', period: { type: 'CUSTOM', duration: 3600 }, limit_amount: 10_000, limit_count: null, filters: { include_mccs: ['5812'], exclude_countries: null } };
    expect(authRuleDefinition('VELOCITY_LIMIT', parameters).parameters).toEqual(parameters);
  });

  it('keeps a MERCHANT_LOCK', () => {
    const parameters = { merchants: [{ merchant_id: '1234', comment: 'office' }, { descriptor: 'BAKERY' }] };
    expect(authRuleDefinition('MERCHANT_LOCK', parameters).parameters).toEqual(parameters);
  });

  it.each([
    ['TYPESCRIPT_CODE, which runs no code here', 'TYPESCRIPT_CODE', { code: '', features: [] }, 'type'],
    ['parameters that are not an object', 'CONDITIONAL_ACTION', [], 'parameters'],
    ['an action other than DECLINE or CHALLENGE', 'CONDITIONAL_ACTION', { action: 'APPROVE', conditions: [condition()] }, 'parameters.action'],
    ['no conditions', 'CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [] }, 'parameters.conditions'],
    ['an attribute no authorization here carries', 'CONDITIONAL_BLOCK', { conditions: [condition({ attribute: 'RISK_SCORE' })] }, 'parameters.conditions[0].attribute'],
    ['a comparison of text', 'CONDITIONAL_BLOCK', { conditions: [condition({ operation: 'IS_GREATER_THAN', value: 5000 })] }, 'parameters.conditions[0].operation'],
    ['a list operation on a number', 'CONDITIONAL_BLOCK', { conditions: [condition({ attribute: 'TRANSACTION_AMOUNT', value: ['1'] })] }, 'parameters.conditions[0].operation'],
    ['a time operation', 'CONDITIONAL_BLOCK', { conditions: [condition({ operation: 'IS_AFTER', value: '2026-01-01' })] }, 'parameters.conditions[0].operation'],
    ['a CONTAINS operation', 'CONDITIONAL_BLOCK', { conditions: [condition({ operation: 'CONTAINS_ANY', value: ['1'] })] }, 'parameters.conditions[0].operation'],
    ['a text where a number is compared', 'CONDITIONAL_BLOCK', { conditions: [condition({ attribute: 'TRANSACTION_AMOUNT', operation: 'IS_GREATER_THAN', value: '5000' })] }, 'parameters.conditions[0].value'],
    ['an empty list', 'CONDITIONAL_BLOCK', { conditions: [condition({ value: [] })] }, 'parameters.conditions[0].value'],
    ['a pattern that does not compile', 'CONDITIONAL_BLOCK', { conditions: [condition({ operation: 'MATCHES', value: '(' })] }, 'parameters.conditions[0].value'],
    ['a history attribute without a scope', 'CONDITIONAL_BLOCK', { conditions: [{ attribute: 'IS_NEW_MCC', operation: 'IS_EQUAL_TO', value: 'TRUE' }] }, 'parameters.conditions[0].parameters.scope'],
    ['a history attribute on the account', 'CONDITIONAL_BLOCK', { conditions: [{ attribute: 'IS_NEW_MCC', operation: 'IS_EQUAL_TO', value: 'TRUE', parameters: { scope: 'ACCOUNT' } }] }, 'parameters.conditions[0].parameters.scope'],
    ['a velocity scope other than CARD or ACCOUNT', 'VELOCITY_LIMIT', velocity({ scope: 'PROGRAM' }), 'parameters.scope'],
    ['a velocity limit without a limit', 'VELOCITY_LIMIT', velocity({ limit_count: null }), 'parameters.limit_amount'],
    ['a negative limit', 'VELOCITY_LIMIT', velocity({ limit_count: -1 }), 'parameters.limit_count'],
    ['a fractional amount', 'VELOCITY_LIMIT', velocity({ limit_amount: 1.5 }), 'parameters.limit_amount'],
    ['a trailing window under 10 seconds', 'VELOCITY_LIMIT', velocity({ period: { type: 'CUSTOM', duration: 9 } }), 'parameters.period.duration'],
    ['a trailing window over 90 days', 'VELOCITY_LIMIT', velocity({ period: { type: 'CUSTOM', duration: 7_776_001 } }), 'parameters.period.duration'],
    ['a day of week 8', 'VELOCITY_LIMIT', velocity({ period: { type: 'WEEK', day_of_week: 8 } }), 'parameters.period.day_of_week'],
    ['a day of month 32', 'VELOCITY_LIMIT', velocity({ period: { type: 'MONTH', day_of_month: 32 } }), 'parameters.period.day_of_month'],
    ['30 February', 'VELOCITY_LIMIT', velocity({ period: { type: 'YEAR', month: 2, day_of_month: 30 } }), 'parameters.period.day_of_month'],
    ['an unknown period', 'VELOCITY_LIMIT', velocity({ period: { type: 'HOUR' } }), 'parameters.period.type'],
    ['an unknown PAN entry mode', 'VELOCITY_LIMIT', velocity({ filters: { include_pan_entry_modes: ['TELEPATHY'] } }), 'parameters.filters.include_pan_entry_modes'],
    ['a filter that is not a list', 'VELOCITY_LIMIT', velocity({ filters: { include_mccs: '5812' } }), 'parameters.filters.include_mccs'],
    ['no merchants', 'MERCHANT_LOCK', { merchants: [] }, 'parameters.merchants'],
    ['a merchant with neither id nor descriptor', 'MERCHANT_LOCK', { merchants: [{ comment: 'who?' }] }, 'parameters.merchants[0]'],
  ])('refuses %s', (_what, type, parameters, field) => {
    expect(() => authRuleDefinition(type, parameters)).toThrow(AuthRuleParametersInvalid);
    try {
      authRuleDefinition(type, parameters);
    } catch (error) {
      expect((error as AuthRuleParametersInvalid).field).toBe(field);
    }
  });
});
