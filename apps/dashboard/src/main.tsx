import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get } from './api';
import { startLiveUpdates, stopLiveUpdates, useLive } from './live';
import { AccountPage } from './pages/account';
import { CardPage } from './pages/card';
import { CardsPage } from './pages/cards';
import { ClockPage } from './pages/clock';
import { DisputesPage } from './pages/disputes';
import { MoneyPage } from './pages/money';
import { RulePage } from './pages/rule';
import { RulesPage } from './pages/rules';
import { SimulatePage } from './pages/simulate';
import { TransactionPage, TransactionsPage } from './pages/transactions';
import { WebhooksPage } from './pages/webhooks';
import { href, useRoute } from './router';
import { forgetApiKey, saveApiKey, savedApiKey } from './session';
import { ErrorNote, useAction } from './ui';
import './styles.css';

const NAV: [string, string][] = [
  ['cards', 'Cards'],
  ['transactions', 'Transactions'],
  ['money', 'Money'],
  ['disputes', 'Disputes'],
  ['rules', 'Auth rules'],
  ['simulate', 'Simulate'],
  ['webhooks', 'Webhooks'],
  ['account', 'Account'],
  ['clock', 'Test clock'],
];

const LIVE_TEXT = { connecting: 'connecting…', live: 'live', polling: 'refreshing every 3 s (no event stream here)', offline: 'reconnecting…' };

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const check = useAction(async () => {
    saveApiKey(key);
    try {
      await get('/v1/accounts');
    } catch (error) {
      forgetApiKey();
      throw error;
    }
    onSignedIn();
  });
  return (
    <main id="main" class="sign-in">
      <h1>Card ledger dashboard</h1>
      <p>
        Paste your api-key. <code>npm start</code> prints the sandbox's; it is also kept in <code>.data/sandbox-api-key</code>. It stays in this tab only (session storage) and goes nowhere but
        this service's API.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void check.run();
        }}
      >
        <label for="api-key">Api-key</label>
        <input id="api-key" name="api-key" type="password" autocomplete="off" required value={key} onInput={(event) => setKey((event.target as HTMLInputElement).value)} />
        <button type="submit" disabled={check.busy}>
          Open dashboard
        </button>
      </form>
      <ErrorNote error={check.error} />
    </main>
  );
}

function Page({ route }: { route: string[] }) {
  const [name, token] = route;
  if (name === 'cards') return token ? <CardPage token={token} /> : <CardsPage />;
  if (name === 'transactions') return token ? <TransactionPage token={token} /> : <TransactionsPage />;
  if (name === 'money') return <MoneyPage />;
  if (name === 'disputes') return <DisputesPage />;
  if (name === 'rules') return token ? <RulePage token={token} /> : <RulesPage />;
  if (name === 'simulate') return <SimulatePage />;
  if (name === 'webhooks') return <WebhooksPage />;
  if (name === 'account') return <AccountPage />;
  if (name === 'clock') return <ClockPage />;
  return <h1>No such page</h1>;
}

function Shell({ onSignOut }: { onSignOut: () => void }) {
  const route = useRoute();
  const live = useLive();
  useEffect(() => {
    startLiveUpdates();
    return stopLiveUpdates;
  }, []);
  // A new page: move focus to its heading, so keyboard and screen-reader users start there.
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus();
  }, [route.join('/')]);
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header>
        <span class="brand">Card ledger</span>
        <nav aria-label="Pages">
          {NAV.map(([path, text]) => (
            <a key={path} href={href(path)} aria-current={route[0] === path ? 'page' : undefined}>
              {text}
            </a>
          ))}
        </nav>
        <span class={`live live-${live.state}`} role="status" aria-live="polite">
          Updates: {LIVE_TEXT[live.state]}
          {live.recent[0] && <small> · last: {live.recent[0].type}</small>}
        </span>
        <button type="button" onClick={onSignOut}>
          Forget api-key
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
}

function App() {
  const [signedIn, setSignedIn] = useState(() => savedApiKey() !== null);
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  return (
    <Shell
      onSignOut={() => {
        forgetApiKey();
        setSignedIn(false);
      }}
    />
  );
}

render(<App />, document.getElementById('app')!);
