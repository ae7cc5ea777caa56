import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { get, post, remove } from '../api';
import { Backtest } from '../backtest';
import { DataTable } from '../data-table';
import { Facts } from '../facts';
import { useLive } from '../live';
import { formOf, parametersOf, type ParametersForm } from '../rule-parameters';
import { ParametersFields } from '../rule-parameters-form';
import { parametersWords, scopeWords, type AuthRule } from '../rule-words';
import { href } from '../router';
import { Badge, ErrorNote, useAction, useLoad, when } from '../ui';
import { RuleActions } from './rules';

interface RuleVersion {
  version: number;
  state: string;
  parameters: unknown;
  created: string;
}

/** One auth rule: what it does, its versions, a new draft, and a backtest of it. */
export function RulePage({ token }: { token: string }) {
  const live = useLive();
  const rule = useLoad(() => get<AuthRule>(`/v2/auth_rules/${token}`), [token, live.tick]);
  const versions = useLoad(() => get<{ data: RuleVersion[] }>(`/v2/auth_rules/${token}/versions`), [token, live.tick]);
  const r = rule.data;
  const reload = () => {
    rule.reload();
    versions.reload();
  };
  return (
    <>
      <p>
        <a href={href('rules')}>All rules</a>
      </p>
      <h1>Rule {r?.name || token}</h1>
      <ErrorNote error={rule.error} />
      {r && (
        <section aria-labelledby="rule-facts">
          <h2 id="rule-facts">What it does</h2>
          <Facts
            facts={[
              ['State', <Badge value={r.state} />],
              ['Type', r.type],
              ['Applies to', <Scope rule={r} />],
              ['Enforced', r.current_version ? `v${r.current_version.version}: ${parametersWords(r.type, r.current_version.parameters)}` : 'nothing yet: no version promoted'],
              ['In shadow', r.draft_version ? `v${r.draft_version.version}: ${parametersWords(r.type, r.draft_version.parameters)}` : 'no draft'],
              ['Token', <code>{r.token}</code>],
            ]}
          />
          <div class="actions">
            <RuleActions rule={r} onChanged={reload} />
            <DiscardAndDelete rule={r} onChanged={reload} />
          </div>
        </section>
      )}
      <section aria-labelledby="rule-versions">
        <h2 id="rule-versions">Versions</h2>
        <ErrorNote error={versions.error} />
        {r && (
          <DataTable
            labelledBy="rule-versions"
            columns={[
              { header: 'Version', cell: (version) => `v${version.version}` },
              { header: 'State', cell: (version) => <Badge value={version.state} /> },
              { header: 'Parameters', cell: (version) => parametersWords(r.type, version.parameters) },
              { header: 'Written', cell: (version) => when(version.created) },
            ]}
            rows={versions.data?.data}
            keyOf={(version) => version.version}
          />
        )}
      </section>
      {r && <NewDraft rule={r} onDrafted={reload} />}
      <Backtest ruleToken={token} />
    </>
  );
}

function Scope({ rule }: { rule: AuthRule }) {
  const cards = rule.program_level ? (rule.excluded_card_tokens ?? []) : rule.card_tokens;
  return (
    <>
      {scopeWords(rule)}
      {cards.length > 0 && (rule.program_level ? ' (left out: ' : ': ')}
      {cards.map((card, at) => (
        <Fragment key={card}>
          {at > 0 && ', '}
          <a href={href('cards', card)}>{card}</a>
        </Fragment>
      ))}
      {cards.length > 0 && rule.program_level && ')'}
    </>
  );
}

function DiscardAndDelete({ rule, onChanged }: { rule: AuthRule; onChanged: () => void }) {
  const change = useAction(async (action: 'discard' | 'delete') => {
    if (action === 'discard') {
      await post(`/v2/auth_rules/${rule.token}/draft`, { parameters: null });
      onChanged();
    } else {
      await remove(`/v2/auth_rules/${rule.token}`);
      location.hash = href('rules');
    }
  });
  return (
    <>
      {rule.draft_version && (
        <button type="button" class="danger" disabled={change.busy} onClick={() => change.run('discard')}>
          Discard draft
        </button>
      )}
      <button type="button" class="danger" disabled={change.busy} onClick={() => confirm('Delete this rule? It is gone from every read.') && change.run('delete')}>
        Delete rule
      </button>
      <ErrorNote error={change.error} />
    </>
  );
}

/** A new draft, starting from the latest version; it replaces any draft there is and runs in shadow until promoted. */
function NewDraft({ rule, onDrafted }: { rule: AuthRule; onDrafted: () => void }) {
  const latest = rule.draft_version ?? rule.current_version;
  const [form, setForm] = useState<ParametersForm>(() => formOf(rule.type, latest?.parameters));
  const draft = useAction(async () => {
    const answer = await post<AuthRule>(`/v2/auth_rules/${rule.token}/draft`, { parameters: parametersOf(rule.type, form) });
    onDrafted();
    return answer;
  });
  return (
    <section aria-labelledby="rule-draft">
      <h2 id="rule-draft">New draft</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void draft.run();
        }}
      >
        <ParametersFields type={rule.type} form={form} onChange={setForm} />
        <div class="actions">
          <button type="submit" disabled={draft.busy}>
            Save as draft
          </button>
        </div>
      </form>
      <ErrorNote error={draft.error} />
      {draft.result && (
        <p role="status" class="ok">
          Draft v{draft.result.draft_version?.version} saved: it runs in shadow until promoted.
        </p>
      )}
    </section>
  );
}
