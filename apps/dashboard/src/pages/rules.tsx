import { useState } from 'preact/hooks';
import { get, Page, patch, post } from '../api';
import { useLive } from '../live';
import { BLANK_PARAMETERS, FORM_RULE_TYPES, parametersOf, type ParametersForm } from '../rule-parameters';
import { ParametersFields } from '../rule-parameters-form';
import { RuleTable } from '../rule-table';
import type { AuthRule } from '../rule-words';
import { ErrorNote, SelectField, TextField, useAction, useLoad } from '../ui';

/** The program's auth rules (Lithic's Auth Rules v2): every rule, and a form to write a new one. */
export function RulesPage() {
  const live = useLive();
  const rules = useLoad(() => get<Page<AuthRule>>('/v2/auth_rules', { page_size: 100 }), [live.tick]);
  return (
    <>
      <h1>Auth rules</h1>
      <p>
        Rules run on every authorization of the cards they apply to. A new rule is a <strong>draft</strong>: it runs in shadow, recording what it would have done and declining nothing,
        until it is promoted. A rule's page shows its versions and runs a backtest of its draft over past authorizations.
      </p>
      <section aria-labelledby="rule-list">
        <h2 id="rule-list">The program's rules</h2>
        <ErrorNote error={rules.error} />
        <RuleTable rules={rules.data?.data} labelledBy="rule-list" actions={(rule) => <RuleActions rule={rule} onChanged={rules.reload} />} />
        {rules.data && rules.data.data.length === 0 && <p>No rules yet: every authorization is decided by the card's and the program's settings alone.</p>}
      </section>
      <CreateRule onCreated={rules.reload} />
    </>
  );
}

/** Promote a rule's draft, or deactivate the rule, each labelled with the rule it acts on. */
export function RuleActions({ rule, onChanged }: { rule: AuthRule; onChanged: () => void }) {
  const change = useAction(async (action: 'promote' | 'deactivate') => {
    if (action === 'promote') await post(`/v2/auth_rules/${rule.token}/promote`);
    else await patch(`/v2/auth_rules/${rule.token}`, { state: 'INACTIVE' });
    onChanged();
  });
  const name = rule.name || rule.token;
  return (
    <>
      {rule.draft_version && (
        <button type="button" aria-label={`Promote draft of ${name}`} disabled={change.busy} onClick={() => change.run('promote')}>
          Promote draft
        </button>
      )}
      {rule.state === 'ACTIVE' && (
        <button type="button" class="danger" aria-label={`Deactivate ${name}`} disabled={change.busy} onClick={() => change.run('deactivate')}>
          Deactivate
        </button>
      )}
      <ErrorNote error={change.error} />
    </>
  );
}

type Scope = 'program' | 'account' | 'cards';

function CreateRule({ onCreated }: { onCreated: () => void }) {
  const cards = useLoad(() => get<Page<any>>('/v1/cards', { page_size: 100 }), []);
  const [name, setName] = useState('');
  const [type, setType] = useState('CONDITIONAL_ACTION');
  const [scope, setScope] = useState<Scope>('program');
  const [chosenCards, setChosenCards] = useState<string[]>([]);
  const [form, setForm] = useState<ParametersForm>(BLANK_PARAMETERS);
  const create = useAction(async () => {
    const body: Record<string, unknown> = { name: name || null, type, parameters: parametersOf(type, form) };
    if (scope === 'program') Object.assign(body, { program_level: true, excluded_card_tokens: chosenCards });
    else if (scope === 'account') body.account_tokens = [(await get<{ data: { token: string }[] }>('/v1/accounts')).data[0].token];
    else if (chosenCards.length === 0) throw new Error('Choose at least one card');
    else body.card_tokens = chosenCards;
    const rule = await post<AuthRule>('/v2/auth_rules', body);
    setName('');
    onCreated();
    return rule;
  });
  const toggle = (token: string, checked: boolean) => setChosenCards(checked ? [...chosenCards, token] : chosenCards.filter((chosen) => chosen !== token));
  return (
    <section aria-labelledby="rule-create">
      <h2 id="rule-create">New rule</h2>
      <form
        class="rule-form"
        onSubmit={(event) => {
          event.preventDefault();
          void create.run();
        }}
      >
        <div class="inline-form">
          <TextField label="Rule name" name="rule-name" value={name} onInput={setName} />
          <SelectField label="Rule type" name="rule-type" value={type} options={FORM_RULE_TYPES} onChange={setType} />
          <SelectField
            label="Applies to"
            name="rule-scope"
            value={scope}
            options={[
              ['program', 'every card of the program'],
              ['account', "the account's cards"],
              ['cards', 'chosen cards'],
            ]}
            onChange={(value) => setScope(value as Scope)}
          />
        </div>
        {scope !== 'account' && (
          <fieldset class="card-choice">
            <legend>{scope === 'program' ? 'Cards it leaves out' : 'Cards it applies to'}</legend>
            {cards.data?.data
              .filter((card) => card.state !== 'CLOSED')
              .map((card) => (
                <label class="check" key={card.token}>
                  <input type="checkbox" checked={chosenCards.includes(card.token)} onChange={(event) => toggle(card.token, (event.target as HTMLInputElement).checked)} />
                  •••• {card.last_four} {card.memo}
                </label>
              ))}
          </fieldset>
        )}
        <ParametersFields type={type} form={form} onChange={setForm} />
        <div class="actions">
          <button type="submit" disabled={create.busy}>
            Create rule (as a draft)
          </button>
        </div>
      </form>
      <ErrorNote error={create.error ?? cards.error} />
      {create.result && (
        <p role="status" class="ok">
          Created rule {create.result.name || create.result.token}: its version {create.result.draft_version?.version} runs in shadow until promoted.
        </p>
      )}
    </section>
  );
}
