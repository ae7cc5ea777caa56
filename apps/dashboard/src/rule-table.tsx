import type { ComponentChildren } from 'preact';
import { DataTable, type Column } from './data-table';
import { href } from './router';
import { parametersWords, scopeWords, type AuthRule } from './rule-words';
import { Badge } from './ui';

/** The program's rules (or a card's), each version's parameters in words; `actions` adds a column of buttons. */
export function RuleTable({ rules, actions, labelledBy }: { rules: readonly AuthRule[] | undefined; actions?: (rule: AuthRule) => ComponentChildren; labelledBy?: string }) {
  const columns: Column<AuthRule>[] = [
    { header: 'Rule', cell: (rule) => <a href={href('rules', rule.token)}>{rule.name || rule.token}</a> },
    { header: 'Type', cell: (rule) => rule.type },
    { header: 'State', cell: (rule) => <Badge value={rule.state} /> },
    { header: 'Applies to', cell: (rule) => scopeWords(rule) },
    { header: 'Enforced (current version)', cell: (rule) => <VersionWords rule={rule} version={rule.current_version} none="nothing yet: no version promoted" /> },
    { header: 'In shadow (draft)', cell: (rule) => <VersionWords rule={rule} version={rule.draft_version} none="no draft" /> },
  ];
  if (actions) columns.push({ header: 'Actions', class: 'actions', cell: actions });
  return <DataTable columns={columns} rows={rules} keyOf={(rule) => rule.token} labelledBy={labelledBy} />;
}

function VersionWords({ rule, version, none }: { rule: AuthRule; version: AuthRule['current_version']; none: string }) {
  if (!version) return <span class="why">{none}</span>;
  return (
    <>
      <strong>v{version.version}</strong> {parametersWords(rule.type, version.parameters)}
    </>
  );
}
