import { useEffect, useState } from 'preact/hooks';
import { get, Page, post, remove } from '../api';
import { Column, DataTable } from '../data-table';
import { useLive } from '../live';
import { WEBHOOK_EVENT_TYPES as EVENT_TYPES } from '../webhook-event-types';
import { ErrorNote, InlineForm, Json, SecretNote, SelectField, TextField, useAction, useLoad, when } from '../ui';


export function WebhooksPage() {
  const live = useLive();
  const subscriptions = useLoad(() => get<Page<any>>('/v1/event_subscriptions', { page_size: 100 }), [live.tick]);
  const [selected, setSelected] = useState('');
  const [url, setUrl] = useState('http://127.0.0.1:4000/hook');
  const [types, setTypes] = useState<string[]>([]);
  const create = useAction(async () => {
    const created = await post('/v1/event_subscriptions', { url, event_types: types });
    subscriptions.reload();
    setSelected(created.token);
    return created;
  });
  const current = subscriptions.data?.data.find((s) => s.token === selected);
  return (
    <>
      <h1>Webhooks</h1>
      <section aria-labelledby="new-subscription">
        <h2 id="new-subscription">Subscribe a URL</h2>
        <InlineForm onSubmit={() => void create.run()}>
          <TextField label="URL" name="url" value={url} onInput={setUrl} />
          <fieldset>
            <legend>Event types (none: all)</legend>
            {EVENT_TYPES.map((type) => (
              <label key={type} class="check">
                <input type="checkbox" checked={types.includes(type)} onChange={(event) => setTypes((event.target as HTMLInputElement).checked ? [...types, type] : types.filter((t) => t !== type))} />
                {type}
              </label>
            ))}
          </fieldset>
          <button type="submit" disabled={create.busy}>
            Subscribe
          </button>
        </InlineForm>
        <ErrorNote error={create.error} />
      </section>
      <section aria-labelledby="subscriptions">
        <h2 id="subscriptions">Subscriptions</h2>
        <ErrorNote error={subscriptions.error} />
        <DataTable
          columns={[
            { header: 'URL', cell: (s) => s.url },
            { header: 'Event types', cell: (s) => (s.event_types.length ? s.event_types.join(', ') : 'all') },
            { header: 'State', cell: (s) => (s.disabled ? 'disabled' : s.failing ? 'failing' : 'active') },
            {
              header: 'Open',
              cell: (s) => (
                <button type="button" aria-pressed={s.token === selected} onClick={() => setSelected(s.token)}>
                  Messages of {s.url}
                </button>
              ),
            },
          ]}
          rows={subscriptions.data?.data}
          keyOf={(s) => s.token}
          rowClass={(s) => (s.token === selected ? 'selected' : '')}
        />
        {subscriptions.data?.data.length === 0 && <p>No subscriptions yet.</p>}
      </section>
      {current && <Subscription key={current.token} subscription={current} tick={live.tick} onDeleted={() => (setSelected(''), subscriptions.reload())} />}
    </>
  );
}

const MESSAGE_COLUMNS: Column<any>[] = [
  { header: 'Created', cell: (m) => when(m.created) },
  { header: 'Event', cell: (m) => m.event_type },
  { header: 'Status', cell: (m) => m.status },
  { header: 'Attempts', cell: (m) => m.attempts },
  { header: 'Last answer', cell: (m) => m.last_response_status ?? '—' },
];

const ATTEMPT_COLUMNS: Column<any>[] = [
  { header: '#', cell: (a) => a.attempt },
  { header: 'When', cell: (a) => when(a.created) },
  { header: 'Answer', cell: (a) => a.response_status ?? 'none' },
  { header: 'Error', cell: (a) => a.error ?? '' },
  { header: 'Took', cell: (a) => `${a.duration_ms} ms` },
];

function Subscription({ subscription, tick, onDeleted }: { subscription: any; tick: number; onDeleted: () => void }) {
  const base = `/v1/event_subscriptions/${subscription.token}`;
  const [status, setStatus] = useState('');
  const [message, setMessage] = useState('');
  const messages = useLoad(() => get<Page<any>>(`${base}/messages`, { status, page_size: 50 }), [base, status, tick]);
  // Deliveries are not program events, so the live stream says nothing of them: while a message is
  // still pending, look again every 2 s.
  const [round, setRound] = useState(0);
  const pending = messages.data?.data.some((m) => m.status === 'pending') ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      messages.reload();
      setRound((n) => n + 1);
    }, 2000);
    return () => clearTimeout(timer);
  }, [pending, messages.data]);
  const secret = useAction(async (rotate: boolean) => (rotate ? post(`${base}/secret/rotate`) : get(`${base}/secret`)));
  const resend = useAction(async (token: string) => {
    const answer = await post(`${base}/messages/${token}/resend`);
    messages.reload();
    return answer;
  });
  const drop = useAction(async () => {
    await remove(base);
    onDeleted();
  });
  return (
    <section aria-labelledby="subscription-detail">
      <h2 id="subscription-detail">{subscription.url}</h2>
      <div class="actions">
        <button type="button" onClick={() => secret.run(false)}>
          Show secret
        </button>
        <button type="button" onClick={() => secret.run(true)}>
          Rotate secret
        </button>
        <button type="button" class="danger" onClick={() => confirm('Delete this subscription?') && drop.run()}>
          Delete subscription
        </button>
      </div>
      {secret.result && <SecretNote secret={secret.result.secret} />}
      <ErrorNote error={secret.error ?? drop.error ?? resend.error} />
      {resend.result && <p role="status" class="ok">Resent: due now, status {resend.result.status}.</p>}
      <h3>Messages</h3>
      <SelectField label="Status" value={status} options={['', 'pending', 'delivered', 'failed']} onChange={setStatus} />
      <ErrorNote error={messages.error} />
      <DataTable
        columns={[
          ...MESSAGE_COLUMNS,
          {
            header: 'Actions',
            class: 'actions',
            cell: (m) => (
              <>
                <button type="button" onClick={() => setMessage(m.token)} aria-label={`Attempts of ${m.event_type} message ${m.token}`}>
                  Attempts
                </button>
                <button type="button" onClick={() => resend.run(m.token)} aria-label={`Resend ${m.event_type} message ${m.token}`}>
                  Resend
                </button>
              </>
            ),
          },
        ]}
        rows={messages.data?.data}
        keyOf={(m) => m.token}
        rowClass={(m) => (m.token === message ? 'selected' : '')}
      />
      {messages.data?.data.length === 0 && <p>No messages.</p>}
      {message && <Attempts path={`${base}/messages/${message}`} tick={tick + round} />}
    </section>
  );
}

function Attempts({ path, tick }: { path: string; tick: number }) {
  const message = useLoad(() => get(path), [path, tick]);
  const attempts = useLoad(() => get<Page<any>>(`${path}/attempts`, { page_size: 50 }), [path, tick]);
  return (
    <>
      <h3 id="delivery-attempts">Delivery attempts</h3>
      <ErrorNote error={attempts.error ?? message.error} />
      <DataTable columns={ATTEMPT_COLUMNS} rows={attempts.data?.data} keyOf={(a) => a.attempt} labelledBy="delivery-attempts" />
      {message.data && (
        <details>
          <summary>Payload sent</summary>
          <Json value={message.data.payload} />
        </details>
      )}
    </>
  );
}
