import { useState } from 'preact/hooks';
import { get, Page, post } from './api';
import { Dispute, DisputeTable } from './dispute-table';
import { DISPUTE_REASONS } from './dispute-stages';
import { centsToInput, parseMoney } from './money';
import { ErrorNote, InlineForm, SelectField, TextField, useAction, useLoad } from './ui';

/** A transaction as this section reads it. */
interface Disputable {
  readonly token: string;
  readonly status: string;
  readonly result: string;
  readonly settled_amount: number;
}

/** Only a purchase that cleared can be disputed (the API answers 409 otherwise). */
const canBeDisputed = (t: Disputable) => t.result === 'APPROVED' && (t.status === 'SETTLING' || t.status === 'SETTLED') && t.settled_amount > 0;

/** The transaction's dispute, or a form to file one while it can be disputed: a transaction has one dispute for good. */
export function TransactionDispute({ transaction, tick }: { transaction: Disputable; tick: number }) {
  const disputes = useLoad(() => get<Page<Dispute>>('/v1/disputes', { transaction_tokens: transaction.token }), [transaction.token, tick]);
  const filed = disputes.data?.data ?? [];
  return (
    <section aria-labelledby="tx-dispute">
      <h2 id="tx-dispute">Dispute</h2>
      <ErrorNote error={disputes.error} />
      {filed.length > 0 && <DisputeTable disputes={filed} labelledBy="tx-dispute" onChanged={disputes.reload} />}
      {disputes.data && filed.length === 0 && (canBeDisputed(transaction) ? <DisputeForm transaction={transaction} onFiled={disputes.reload} /> : <p>Only a cleared purchase can be disputed.</p>)}
    </section>
  );
}

function DisputeForm({ transaction, onFiled }: { transaction: Disputable; onFiled: () => void }) {
  const [amount, setAmount] = useState(centsToInput(transaction.settled_amount));
  const [reason, setReason] = useState('GOODS_SERVICES_NOT_RECEIVED');
  const [note, setNote] = useState('');
  const file = useAction(async () => {
    // An amount that is not one goes as -1, so the API names the problem as it would for any client.
    const cents = parseMoney(amount) ?? -1;
    await post('/v1/disputes', { transaction_token: transaction.token, amount: cents, reason, ...(note ? { customer_note: note } : {}) });
    onFiled();
  });
  return (
    <>
      <InlineForm onSubmit={() => void file.run()}>
        <TextField label="Disputed amount (USD)" value={amount} onInput={setAmount} hint="at most what settled" />
        <SelectField label="Reason" value={reason} options={DISPUTE_REASONS.map((value) => [value, value] as [string, string])} onChange={setReason} />
        <TextField label="Customer note" value={note} onInput={setNote} />
        <button type="submit" disabled={file.busy}>
          File dispute
        </button>
      </InlineForm>
      <ErrorNote error={file.error} />
    </>
  );
}
