import { conditionOf, type ConditionRow, isNumberAttribute, MONEY_ATTRIBUTES, NUMBER_ATTRIBUTES, NUMBER_OPERATIONS, type ParametersForm, PERIODS, TEXT_ATTRIBUTES, TEXT_OPERATIONS } from './rule-parameters';
import { conditionWords } from './rule-words';
import { Field, SelectField, TextField } from './ui';

/**
 * The fields that write an auth rule's parameters, one set per rule type, so a person fills a form
 * instead of writing JSON; any other type is written as JSON (rule-parameters.ts reads them).
 */

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
