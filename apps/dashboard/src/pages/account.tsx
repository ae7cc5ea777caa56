import { useEffect, useState } from 'preact/hooks';
import { ApiError, get, patch, post, put, remove } from '../api';
import { useLive } from '../live';
import { DataTable } from '../data-table';
import { centsToInput, money, parseMoney } from '../money';
import { Badge, ErrorNote, InlineForm, SecretNote, SelectField, TextField, useAction, useLoad, when } from '../ui';

const FUNDING_STATES = ['ENABLED', 'PENDING', 'DISCONNECTED', 'DELETED', 'INSUFFICIENT_FUNDS'];

export function AccountPage() {
  const live = useLive();
  const accounts = useLoad(() => get<{ data: any[] }>('/v1/accounts'), [live.tick]);
  const account = accounts.data?.data[0];
  return (
    <>
      <h1>Account</h1>
      <ErrorNote error={accounts.error} />
      {account && <Settings key={JSON.stringify(account)} account={account} onSaved={accounts.reload} />}
      <FundingSources tick={live.tick} />
      <AuthorizationStream />
    </>
  );
}

function Settings({ account, onSaved }: { account: any; onSaved: () => void }) {
  const limits = account.spend_limit ?? { transaction: 0, weekly: 0, monthly: 0, daily: 0, lifetime: 0 };
  const [form, setForm] = useState({
    state: account.state,
    transaction: centsToInput(limits.transaction),
    weekly: centsToInput(limits.weekly),
    monthly: centsToInput(limits.monthly),
    daily: centsToInput(limits.daily ?? 0),
    lifetime: centsToInput(limits.lifetime ?? 0),
    velocityMax: account.velocity_limit ? String(account.velocity_limit.max_authorizations) : '',
    velocityWindow: account.velocity_limit ? String(account.velocity_limit.window_seconds) : '',
    blocked: (account.blocked_merchants ?? []).join('\n'),
  });
  const set = (name: keyof typeof form) => (value: string) => setForm({ ...form, [name]: value });
  const save = useAction(async () => {
    const amount = (text: string, name: string) => {
      const cents = parseMoney(text || '0');
      if (cents === null) throw new Error(`${name} must be an amount such as 100 or 12.50`);
      return cents;
    };
    await patch(`/v1/accounts/${account.token}`, {
      state: form.state,
      spend_limit: { transaction: amount(form.transaction, 'Per transaction'), weekly: amount(form.weekly, 'Weekly'), monthly: amount(form.monthly, 'Monthly') },
      daily_spend_limit: amount(form.daily, 'Daily'),
      lifetime_spend_limit: amount(form.lifetime, 'Lifetime'),
      velocity_limit: form.velocityMax ? { max_authorizations: Number(form.velocityMax), window_seconds: Number(form.velocityWindow || 60) } : null,
      blocked_merchants: form.blocked.split('\n').map((line: string) => line.trim()).filter(Boolean),
    });
    onSaved();
    return true;
  });
  return (
    <section aria-labelledby="program-settings">
      <h2 id="program-settings">Program settings: {account.name}</h2>
      <p>
        Token <code>{account.token}</code>, created {when(account.created)}. Platform limits now: {money(limits.transaction)} per transaction, {money(limits.weekly)} a week,{' '}
        {money(limits.monthly)} a month, {money(limits.daily ?? 0)} a day, {money(limits.lifetime ?? 0)} over the program's life (0: none).
      </p>
      <InlineForm onSubmit={() => void save.run()}>
        <SelectField label="State" value={form.state} options={['ACTIVE', 'PAUSED', 'CLOSED']} onChange={set('state')} />
        <TextField label="Per-transaction limit (USD)" value={form.transaction} onInput={set('transaction')} />
        <TextField label="Weekly limit (USD)" value={form.weekly} onInput={set('weekly')} />
        <TextField label="Monthly limit (USD)" value={form.monthly} onInput={set('monthly')} />
        <TextField label="Daily limit (USD)" value={form.daily} onInput={set('daily')} />
        <TextField label="Lifetime limit (USD)" value={form.lifetime} onInput={set('lifetime')} />
        <TextField label="Velocity: max authorizations" value={form.velocityMax} onInput={set('velocityMax')} hint="blank: rule off" />
        <TextField label="Velocity: window (seconds)" value={form.velocityWindow} onInput={set('velocityWindow')} />
        <div class="field wide">
          <label for="blocked-merchants">Blocked merchants (one a line)</label>
          <textarea id="blocked-merchants" rows={3} value={form.blocked} onInput={(event) => set('blocked')((event.target as HTMLTextAreaElement).value)} />
        </div>
        <button type="submit" disabled={save.busy}>
          Save settings
        </button>
      </InlineForm>
      <ErrorNote error={save.error} />
      {save.result && <p role="status" class="ok">Saved.</p>}
    </section>
  );
}

function FundingSources({ tick }: { tick: number }) {
  const sources = useLoad(() => get<{ data: any[] }>('/v1/funding_sources', { page_size: 1000 }), [tick]);
  const [name, setName] = useState('Savings');
  const add = useAction(async () => {
    await post('/v1/funding_sources', { account_name: name, type: 'DEPOSITORY_SAVINGS' });
    sources.reload();
  });
  const change = useAction(async (token: string, state: string) => {
    await patch(`/v1/funding_sources/${token}`, { state });
    sources.reload();
  });
  return (
    <section aria-labelledby="funding-sources">
      <h2 id="funding-sources">Funding sources</h2>
      <ErrorNote error={sources.error ?? change.error} />
      <DataTable
        columns={[
          { header: 'Name', cell: (source) => source.account_name },
          { header: 'Type', cell: (source) => source.type },
          { header: 'Account', cell: (source) => `•••• ${source.last_four}` },
          {
            header: 'State',
            cell: (source) => (
              <>
                <label class="visually-hidden" for={`state-${source.token}`}>
                  State of {source.account_name}
                </label>
                <select id={`state-${source.token}`} value={source.state} onChange={(event) => change.run(source.token, (event.target as HTMLSelectElement).value)}>
                  {FUNDING_STATES.map((state) => (
                    <option key={state}>{state}</option>
                  ))}
                </select>{' '}
                <Badge value={source.state} />
              </>
            ),
          },
          { header: 'Token', cell: (source) => <code>{source.token}</code> },
        ]}
        rows={sources.data?.data}
        keyOf={(source) => source.token}
      />
      <InlineForm onSubmit={() => void add.run()}>
        <TextField label="New source's account name" value={name} onInput={setName} />
        <button type="submit">Add funding source</button>
      </InlineForm>
      <ErrorNote error={add.error} />
    </section>
  );
}

function AuthorizationStream() {
  const enrolled = useLoad(async () => {
    try {
      return await get('/v1/auth_stream');
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }, []);
  const [url, setUrl] = useState('');
  const [timeout, setTimeoutMs] = useState('2000');
  useEffect(() => {
    if (enrolled.data) {
      setUrl(enrolled.data.url);
      setTimeoutMs(String(enrolled.data.timeout_ms));
    }
  }, [enrolled.data]);
  const enroll = useAction(async () => {
    const answer = await put('/v1/auth_stream', { url, timeout_ms: Number(timeout) });
    enrolled.reload();
    return answer;
  });
  const leave = useAction(async () => {
    await remove('/v1/auth_stream');
    enrolled.reload();
  });
  return (
    <section aria-labelledby="auth-stream">
      <h2 id="auth-stream">Authorization stream</h2>
      <p>{enrolled.data ? `Enrolled: ${enrolled.data.url} (${enrolled.data.timeout_ms} ms).` : 'Not enrolled: authorizations are decided by the service alone.'}</p>
      <ErrorNote error={enrolled.error ?? enroll.error ?? leave.error} />
      <InlineForm onSubmit={() => void enroll.run()}>
        <TextField label="Endpoint URL" value={url} onInput={setUrl} placeholder="http://127.0.0.1:4000/authorize" />
        <TextField label="Timeout (ms)" value={timeout} onInput={setTimeoutMs} hint="100 to 6000" />
        <button type="submit">{enrolled.data ? 'Replace endpoint' : 'Enroll'}</button>
        {enrolled.data && (
          <button type="button" class="danger" onClick={() => leave.run()}>
            Disenroll
          </button>
        )}
      </InlineForm>
      {enroll.result && <SecretNote secret={enroll.result.secret} />}
    </section>
  );
}
