import { centsToInput, parseMoney } from './money';
import { conditionWords, type RuleCondition } from './rule-words';
import { Field, SelectField, TextField } from './ui';

/**
 * The fields that write an auth rule's parameters, one set per rule type, so a person fills a form
 * instead of writing JSON; any other type (or anything the form does not offer) is written as JSON.
 * The attribute and operation lists are the ones the service evaluates (docs/decisions.md, Auth rules).
 */

export const FORM_RULE_TYPES: readonly [string, string][] = [
  ['CONDITIONAL_ACTION', 'Conditional action: decline when conditions hold'],
  ['VELOCITY_LIMIT', 'Velocity limit: at most so many or so much in a period'],
  ['MERCHANT_LOCK', 'Merchant lock: only at these merchants'],
  ['CONDITIONAL_BLOCK', 'Conditional block (deprecated), as JSON'],
];

const TEXT_ATTRIBUTES = [
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
const NUMBER_ATTRIBUTES = [
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
const TEXT_OPERATIONS = ['IS_ONE_OF', 'IS_NOT_ONE_OF', 'IS_EQUAL_TO', 'IS_NOT_EQUAL_TO', 'MATCHES', 'DOES_NOT_MATCH'];
const NUMBER_OPERATIONS = ['IS_GREATER_THAN', 'IS_GREATER_THAN_OR_EQUAL_TO', 'IS_LESS_THAN', 'IS_LESS_THAN_OR_EQUAL_TO', 'IS_EQUAL_TO', 'IS_NOT_EQUAL_TO'];
/** Lithic requires `parameters.scope` on these history attributes; the card's own history is the one answered here. */
const SCOPED_ATTRIBUTES = new Set(['IS_NEW_COUNTRY', 'IS_NEW_MCC', 'IS_FIRST_TRANSACTION', 'CONSECUTIVE_DECLINES', 'TIME_SINCE_LAST_TRANSACTION', 'DISTINCT_COUNTRY_COUNT']);
const MONEY_ATTRIBUTES = new Set(['TRANSACTION_AMOUNT', 'CASH_AMOUNT']);
const PERIODS: [string, string][] = [
  ['CUSTOM', 'trailing seconds'],
  ['DAY', 'day'],
  ['WEEK', 'week'],
  ['MONTH', 'month'],
  ['YEAR', 'year'],
];

const isNumberAttribute = (attribute: string) => NUMBER_ATTRIBUTES.includes(attribute);

interface ConditionRow {
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

function conditionOf(row: ConditionRow, index: number): RuleCondition {
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

/** The form's fields for the chosen type. */
export function ParametersFields({ type, form, onChange }: { type: string; form: ParametersForm; onChange: (form: ParametersForm) => void }) {
  const set = (name: keyof ParametersForm) => (value: string) => onChange({ ...form, [name]: value });
  if (type === 'CONDITIONAL_ACTION') return <ConditionsFields form={form} onChange={onChange} />;
  if (type === 'VELOCITY_LIMIT') {
    return (
      <fieldset class="inline-form">
        <legend>Velocity limit, per card</legend>
        <TextField label="Most authorizations" name="limit-count" value={form.limitCount} onInput={set('limitCount')} hint="blank: no count limit" />
        <TextField label="Most spent (USD)" name="limit-amount" value={form.limitAmount} onInput={set('limitAmount')} hint="blank: no amount limit" />
        <SelectField label="Per" name="period" value={form.period} options={PERIODS} onChange={set('period')} />
        {form.period === 'CUSTOM' && <TextField label="Trailing seconds" name="period-seconds" value={form.periodSeconds} onInput={set('periodSeconds')} />}
        <TextField label="Only these MCCs" value={form.includeMccs} onInput={set('includeMccs')} hint="comma separated; blank: all" />
        <TextField label="Not these MCCs" value={form.excludeMccs} onInput={set('excludeMccs')} />
        <TextField label="Only these countries" value={form.includeCountries} onInput={set('includeCountries')} hint="ISO alpha-3, e.g. USA" />
        <TextField label="Not these countries" value={form.excludeCountries} onInput={set('excludeCountries')} />
      </fieldset>
    );
  }
  if (type === 'MERCHANT_LOCK') {
    return (
      <div class="field wide">
        <label for="lock-merchants">Allowed merchants (one a line: a descriptor, or id: merchant id)</label>
        <textarea id="lock-merchants" class="wide-input" rows={4} value={form.merchants} onInput={(event) => set('merchants')((event.target as HTMLTextAreaElement).value)} />
      </div>
    );
  }
  return (
    <div class="field wide">
      <label for="rule-json">Parameters (JSON, as Lithic's API takes them)</label>
      <textarea id="rule-json" class="wide-input json-input" rows={8} value={form.json} onInput={(event) => set('json')((event.target as HTMLTextAreaElement).value)} />
    </div>
  );
}

function ConditionsFields({ form, onChange }: { form: ParametersForm; onChange: (form: ParametersForm) => void }) {
  const setRow = (index: number, row: ConditionRow) => onChange({ ...form, conditions: form.conditions.map((old, at) => (at === index ? row : old)) });
  const preview = previewOf(form.conditions);
  return (
    <fieldset>
      <legend>Conditions: the rule acts when all of them hold</legend>
      <div class="inline-form">
        <SelectField label="Action" name="action" value={form.action} options={[['DECLINE', 'Decline'], ['CHALLENGE', 'Challenge (declines here: no cardholder to ask)']]} onChange={(action) => onChange({ ...form, action: action as ParametersForm['action'] })} />
      </div>
      {form.conditions.map((row, index) => (
        <div class="inline-form condition" key={index} role="group" aria-label={`Condition ${index + 1}`}>
          <SelectField
            label={`Attribute ${index + 1}`}
            value={row.attribute}
            options={[...TEXT_ATTRIBUTES, ...NUMBER_ATTRIBUTES]}
            onChange={(attribute) => {
              const operations = isNumberAttribute(attribute) ? NUMBER_OPERATIONS : TEXT_OPERATIONS;
              setRow(index, { ...row, attribute, operation: operations.includes(row.operation) ? row.operation : operations[0] });
            }}
          />
          <SelectField label={`Operation ${index + 1}`} value={row.operation} options={isNumberAttribute(row.attribute) ? NUMBER_OPERATIONS : TEXT_OPERATIONS} onChange={(operation) => setRow(index, { ...row, operation })} />
          <TextField label={`Value ${index + 1}`} value={row.value} onInput={(value) => setRow(index, { ...row, value })} hint={valueHint(row)} />
          <button type="button" class="danger" aria-label={`Remove condition ${index + 1}`} onClick={() => onChange({ ...form, conditions: form.conditions.filter((_, at) => at !== index) })}>
            Remove
          </button>
        </div>
      ))}
      <button type="button" onClick={() => onChange({ ...form, conditions: [...form.conditions, { attribute: 'COUNTRY', operation: 'IS_ONE_OF', value: '' }] })}>
        Add condition
      </button>
      {preview && (
        <Field label="Reads as">
          {(id) => (
            <output id={id} class="reads-as">
              {form.action === 'CHALLENGE' ? 'Challenge' : 'Decline'} when {preview}
            </output>
          )}
        </Field>
      )}
    </fieldset>
  );
}

/** The conditions as they will read on the rules page, or nothing while one is not complete. */
function previewOf(rows: ConditionRow[]): string {
  try {
    return rows.map((row, at) => conditionWords(conditionOf(row, at))).join(' and ');
  } catch {
    return '';
  }
}

const YES_NO_ATTRIBUTES = new Set(['PIN_ENTERED', 'IS_FIRST_TRANSACTION', 'IS_NEW_COUNTRY', 'IS_NEW_MCC', 'IS_NEW_MERCHANT']);

function valueHint(row: ConditionRow): string {
  if (MONEY_ATTRIBUTES.has(row.attribute)) return 'an amount in USD, e.g. 25.00';
  if (isNumberAttribute(row.attribute)) return 'a number';
  if (row.operation === 'IS_ONE_OF' || row.operation === 'IS_NOT_ONE_OF') return 'comma separated';
  if (row.operation === 'MATCHES' || row.operation === 'DOES_NOT_MATCH') return 'a regular expression';
  return YES_NO_ATTRIBUTES.has(row.attribute) ? 'TRUE or FALSE' : 'the exact text';
}
