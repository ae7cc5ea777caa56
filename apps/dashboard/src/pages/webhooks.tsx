import { useEffect, useState } from 'preact/hooks';
import { get, Page, post, remove } from '../api';
import { useLive } from '../live';
import { ErrorNote, Json, SelectField, TextField, useAction, useLoad, when } from '../ui';

const EVENT_TYPES = ['card.created', 'card.updated', 'card_transaction.updated'];

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
        <form
          class="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void create.run();
          }}
        >
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
        </form>
        <ErrorNote error={create.error} />
      </section>
      <section aria-labelledby="subscriptions">
        <h2 id="subscriptions">Subscriptions</h2>
        <ErrorNote error={subscriptions.error} />
        <table>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Event types</th>
              <th scope="col">State</th>
              <th scope="col">Open</th>
            </tr>
          </thead>
          <tbody>
            {subscriptions.data?.data.map((s) => (
              <tr key={s.token} class={s.token === selected ? 'selected' : ''}>
                <td>{s.url}</td>
                <td>{s.event_types.length ? s.event_types.join(', ') : 'all'}</td>
                <td>{s.disabled ? 'disabled' : s.failing ? 'failing' : 'active'}</td>
                <td>
                  <button type="button" aria-pressed={s.token === selected} onClick={() => setSelected(s.token)}>
                    Messages of {s.url}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {subscriptions.data?.data.length === 0 && <p>No subscriptions yet.</p>}
      </section>
      {current && <Subscription key={current.token} subscription={current} tick={live.tick} onDeleted={() => (setSelected(''), subscriptions.reload())} />}
    </>
  );
}

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
      {secret.result && (
        <p role="status">
          Signing secret: <code>{secret.result.secret}</code>
        </p>
      )}
      <ErrorNote error={secret.error ?? drop.error ?? resend.error} />
      {resend.result && <p role="status" class="ok">Resent: due now, status {resend.result.status}.</p>}
      <h3>Messages</h3>
      <SelectField label="Status" value={status} options={['', 'pending', 'delivered', 'failed']} onChange={setStatus} />
      <ErrorNote error={messages.error} />
      <table>
        <thead>
          <tr>
            <th scope="col">Created</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last answer</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {messages.data?.data.map((m) => (
            <tr key={m.token} class={m.token === message ? 'selected' : ''}>
              <td>{when(m.created)}</td>
              <td>{m.event_type}</td>
              <td>{m.status}</td>
              <td>{m.attempts}</td>
              <td>{m.last_response_status ?? '—'}</td>
              <td class="actions">
                <button type="button" onClick={() => setMessage(m.token)} aria-label={`Attempts of ${m.event_type} message ${m.token}`}>
                  Attempts
                </button>
                <button type="button" onClick={() => resend.run(m.token)} aria-label={`Resend ${m.event_type} message ${m.token}`}>
                  Resend
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
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
      <table aria-labelledby="delivery-attempts">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">When</th>
            <th scope="col">Answer</th>
            <th scope="col">Error</th>
            <th scope="col">Took</th>
          </tr>
        </thead>
        <tbody>
          {attempts.data?.data.map((a) => (
            <tr key={a.attempt}>
              <td>{a.attempt}</td>
              <td>{when(a.created)}</td>
              <td>{a.response_status ?? 'none'}</td>
              <td>{a.error ?? ''}</td>
              <td>{a.duration_ms} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
      {message.data && (
        <details>
          <summary>Payload sent</summary>
          <Json value={message.data.payload} />
        </details>
      )}
    </>
  );
}
