import { post, remove } from './api';
import { Column, DataTable } from './data-table';
import { DISPUTE_TRANSITIONS, isOpenDispute, STAGE_ACTION_TEXT } from './dispute-stages';
import { money } from './money';
import { href } from './router';
import { useSandbox } from './sandbox';
import { Badge, ErrorNote, useAction, when } from './ui';

/** A dispute as the API answers it (Lithic's Dispute; only what the dashboard shows). */
export interface Dispute {
  readonly token: string;
  readonly transaction_token: string;
  readonly amount: number;
  readonly reason: string;
  readonly status: string;
  readonly resolution_reason: string | null;
  readonly resolution_date: string | null;
  readonly customer_note: string | null;
  readonly created: string;
}

/** The first block of a token, enough to tell a program's disputes apart on a page. */
const shortToken = (token: string) => token.slice(0, 8);

/**
 * Disputes under their columns, each with what can be done to it: withdraw a case that has not
 * ended and, in a sandbox, move it on as the network would (the simulate path).
 */
export function DisputeTable({ disputes, labelledBy, onChanged }: { disputes: readonly Dispute[]; labelledBy: string; onChanged: () => void }) {
  const sandbox = useSandbox();
  const columns: Column<Dispute>[] = [
    { header: 'Dispute', cell: (d) => <code>{shortToken(d.token)}</code> },
    { header: 'Filed', cell: (d) => when(d.created) },
    { header: 'Transaction', cell: (d) => <a href={href('transactions', d.transaction_token)}>{shortToken(d.transaction_token)}</a> },
    { header: 'Amount', class: 'amount', cell: (d) => money(d.amount) },
    { header: 'Reason', cell: (d) => d.reason },
    { header: 'Status', cell: (d) => <DisputeStatus dispute={d} /> },
    { header: 'Actions', class: 'actions', cell: (d) => <DisputeActions dispute={d} sandbox={sandbox} onChanged={onChanged} /> },
  ];
  if (disputes.length === 0) return <p>No disputes.</p>;
  return <DataTable columns={columns} rows={disputes} keyOf={(d) => d.token} labelledBy={labelledBy} />;
}

function DisputeStatus({ dispute }: { dispute: Dispute }) {
  return (
    <>
      <Badge value={dispute.status} />
      {dispute.resolution_reason && <small class="why">{dispute.resolution_reason}</small>}
      {dispute.resolution_date && <small class="why">{when(dispute.resolution_date)}</small>}
    </>
  );
}

function DisputeActions({ dispute, sandbox, onChanged }: { dispute: Dispute; sandbox: boolean; onChanged: () => void }) {
  const change = useAction(async (act: () => Promise<unknown>) => {
    await act();
    onChanged();
  });
  const label = `dispute ${shortToken(dispute.token)}`;
  const nextStages = sandbox ? (DISPUTE_TRANSITIONS[dispute.status] ?? []) : [];
  return (
    <>
      {nextStages.map((status) => (
        <button
          key={status}
          type="button"
          aria-label={`${STAGE_ACTION_TEXT[status] ?? status}: ${label} to ${status}`}
          disabled={change.busy}
          onClick={() => change.run(() => post(`/v1/simulate/disputes/${dispute.token}/advance`, { status }))}
        >
          {STAGE_ACTION_TEXT[status] ?? status}
        </button>
      ))}
      {isOpenDispute(dispute.status) && (
        <button
          type="button"
          class="danger"
          aria-label={`Withdraw ${label}`}
          disabled={change.busy}
          onClick={() => confirm(`Withdraw the ${label}? A withdrawn case is over.`) && change.run(() => remove(`/v1/disputes/${dispute.token}`))}
        >
          Withdraw
        </button>
      )}
      <ErrorNote error={change.error} />
    </>
  );
}
