import { BLANK_PARAMETERS, formOf, parametersOf, type ParametersForm } from '../src/rule-parameters';
import { parametersWords, scopeWords } from '../src/rule-words';

/** The auth rule forms and words, in Node: what the form sends for each type, and what the pages say. */

const form = (changes: Partial<ParametersForm>): ParametersForm => ({ ...BLANK_PARAMETERS, ...changes });

describe('parametersOf: what the rule form sends', () => {
  it('sends conditions with money in cents, lists split, and the CARD scope the history attributes need', () => {
    const parameters = parametersOf(
      'CONDITIONAL_ACTION',
      form({
        action: 'CHALLENGE',
        conditions: [
          { attribute: 'MCC', operation: 'IS_ONE_OF', value: '7995, 7801,\n7802' },
          { attribute: 'TRANSACTION_AMOUNT', operation: 'IS_GREATER_THAN', value: '20.50' },
          { attribute: 'CONSECUTIVE_DECLINES', operation: 'IS_GREATER_THAN_OR_EQUAL_TO', value: '3' },
          { attribute: 'IS_NEW_COUNTRY', operation: 'IS_EQUAL_TO', value: ' TRUE ' },
        ],
      }),
    );
    expect(parameters).toEqual({
      action: 'CHALLENGE',
      conditions: [
        { attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995', '7801', '7802'] },
        { attribute: 'TRANSACTION_AMOUNT', operation: 'IS_GREATER_THAN', value: 2050 },
        { attribute: 'CONSECUTIVE_DECLINES', operation: 'IS_GREATER_THAN_OR_EQUAL_TO', value: 3, parameters: { scope: 'CARD' } },
        { attribute: 'IS_NEW_COUNTRY', operation: 'IS_EQUAL_TO', value: 'TRUE', parameters: { scope: 'CARD' } },
      ],
    });
  });

  it('says which condition is not filled in', () => {
    expect(() => parametersOf('CONDITIONAL_ACTION', form({ conditions: [] }))).toThrow('at least one condition');
    expect(() => parametersOf('CONDITIONAL_ACTION', form({ conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ' , ' }] }))).toThrow('Condition 1');
    expect(() => parametersOf('CONDITIONAL_ACTION', form({ conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: '1' }, { attribute: 'CASH_AMOUNT', operation: 'IS_LESS_THAN', value: 'ten' }] }))).toThrow(
      'Condition 2: the value must be an amount',
    );
    expect(() => parametersOf('CONDITIONAL_ACTION', form({ conditions: [{ attribute: 'CARD_AGE', operation: 'IS_LESS_THAN', value: '' }] }))).toThrow('a number');
  });

  it('sends a velocity limit per card with its period, limits in cents and filters', () => {
    expect(parametersOf('VELOCITY_LIMIT', form({ period: 'WEEK', limitCount: '5', limitAmount: '100', includeMccs: '5411', excludeCountries: 'CAN, MEX' }))).toEqual({
      scope: 'CARD',
      period: { type: 'WEEK' },
      limit_count: 5,
      limit_amount: 10_000,
      filters: { include_mccs: ['5411'], exclude_countries: ['CAN', 'MEX'] },
    });
    expect(parametersOf('VELOCITY_LIMIT', form({ period: 'CUSTOM', periodSeconds: '90', limitAmount: '1.5' }))).toEqual({ scope: 'CARD', period: { type: 'CUSTOM', duration: 90 }, limit_amount: 150 });
    expect(() => parametersOf('VELOCITY_LIMIT', form({}))).toThrow('Give a most authorizations');
    expect(() => parametersOf('VELOCITY_LIMIT', form({ period: 'CUSTOM', periodSeconds: '1.5', limitCount: '1' }))).toThrow('whole number of seconds');
  });

  it('sends a merchant lock from lines, `id:` naming an acceptor id', () => {
    expect(parametersOf('MERCHANT_LOCK', form({ merchants: ' Corner Shop \n\nID: 123 \n' }))).toEqual({ merchants: [{ descriptor: 'Corner Shop' }, { merchant_id: '123' }] });
    expect(() => parametersOf('MERCHANT_LOCK', form({ merchants: '\n' }))).toThrow('at least one merchant');
  });

  it('sends any other type as the JSON typed', () => {
    expect(parametersOf('CONDITIONAL_BLOCK', form({ json: '{"conditions":[{"attribute":"MCC","operation":"IS_ONE_OF","value":["7995"]}]}' }))).toEqual({
      conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] }],
    });
    expect(() => parametersOf('CONDITIONAL_BLOCK', form({ json: '{' }))).toThrow('not JSON');
  });
});

describe('formOf: a new draft starts from the version it follows', () => {
  it.each([
    [
      'CONDITIONAL_ACTION',
      {
        action: 'DECLINE',
        conditions: [
          { attribute: 'COUNTRY', operation: 'IS_NOT_ONE_OF', value: ['USA', 'CAN'] },
          { attribute: 'TRANSACTION_AMOUNT', operation: 'IS_GREATER_THAN', value: 2005 },
          { attribute: 'DISTINCT_COUNTRY_COUNT', operation: 'IS_GREATER_THAN', value: 2, parameters: { scope: 'CARD' } },
        ],
      },
    ],
    ['VELOCITY_LIMIT', { scope: 'CARD', period: { type: 'CUSTOM', duration: 600 }, limit_count: 2, limit_amount: 5000, filters: { exclude_mccs: ['6011'], include_countries: ['USA'] } }],
    ['MERCHANT_LOCK', { merchants: [{ descriptor: 'Corner Shop' }, { merchant_id: '42' }] }],
    ['CONDITIONAL_BLOCK', { conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] }] }],
  ])('%s parameters read back into the form send the same parameters', (type, parameters) => {
    expect(parametersOf(type, formOf(type, parameters))).toEqual(parameters);
  });
});

describe('rule words', () => {
  it('says what each type of version does', () => {
    expect(
      parametersWords('CONDITIONAL_ACTION', {
        action: 'DECLINE',
        conditions: [
          { attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995', '7801'] },
          { attribute: 'TRANSACTION_AMOUNT', operation: 'IS_GREATER_THAN_OR_EQUAL_TO', value: 2000 },
        ],
      }),
    ).toBe('Decline when mcc is one of 7995, 7801 and transaction amount is at least $20.00');
    expect(parametersWords('VELOCITY_LIMIT', { scope: 'CARD', period: { type: 'DAY' }, limit_count: 3, limit_amount: 10_000, filters: { exclude_mccs: ['6011'] } })).toBe(
      'At most 3 authorizations and $100.00 per card a day (from midnight Eastern) (not MCC 6011)',
    );
    expect(parametersWords('MERCHANT_LOCK', { merchants: [{ descriptor: 'Corner Shop' }, { merchant_id: '42' }] })).toBe('Only at "Corner Shop", merchant id 42');
    expect(parametersWords('TYPESCRIPT_CODE', { code: 'x' })).toBe('{"code":"x"}');
  });

  it('says who a rule applies to', () => {
    const rule = { program_level: false, account_tokens: [], card_tokens: [], excluded_card_tokens: [] };
    expect(scopeWords({ ...rule, program_level: true })).toBe('Every card');
    expect(scopeWords({ ...rule, program_level: true, excluded_card_tokens: ['a', 'b'] })).toBe('Every card but 2 excluded');
    expect(scopeWords({ ...rule, account_tokens: ['p'] })).toBe("The account's cards");
    expect(scopeWords({ ...rule, card_tokens: ['a'] })).toBe('1 card');
    expect(scopeWords({ ...rule, card_tokens: ['a', 'b'] })).toBe('2 cards');
  });
});
