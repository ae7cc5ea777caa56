import { useState } from 'preact/hooks';
import { get, Page, patch } from '../api';
import { EventStream } from '../event-stream';
import { Facts } from '../facts';
import { useLive } from '../live';
import { centsToInput, money, parseMoney } from '../money';
import { href } from '../router';
import { RuleTable } from '../rule-table';
import type { AuthRule } from '../rule-words';
import { Badge, ErrorNote, InlineForm, SelectField, TextField, useAction, useLoad, when } from '../ui';
import { DURATIONS, limitText } from './cards';
import { TransactionTable } from './transactions';

export function CardPage({ token }: { token: string }) {
  const live = useLive();
  const card = useLoad(() => get(`/v1/cards/${token}`), [token, live.tick]);
  const balance = useLoad(() => get(`/v1/cards/${token}/balance`), [token, live.tick]);
  const rules = useLoad(() => get<Page<AuthRule>>('/v2/auth_rules', { card_token: token, page_size: 100 }), [token, live.tick]);
  const transactions = useLoad(() => get<Page<any>>('/v1/transactions', { card_token: token, page_size: 100 }), [token, live.tick]);
  const c = card.data;
  return (
    <>
      <p>
        <a href={href('cards')}>All cards</a>
      </p>
      <h1>Card {c ? `•••• ${c.last_four}` : token}</h1>
      <ErrorNote error={card.error} />
      {c && (
        <section aria-labelledby="card-facts">
          <h2 id="card-facts">Details</h2>
          <Facts
            facts={[
              ['State', <Badge value={c.state} />],
              ['Type', c.type],
              ['Memo', c.memo || '—'],
              [
                'PAN',
                <>
                  <code>{c.pan}</code> CVV <code>{c.cvv}</code> exp {c.exp_month}/{c.exp_year}
                </>,
              ],
              ['Spend limit', limitText(c)],
              ['Merchant lock', c.hostname || '—'],
              ['Created', when(c.created)],
            ]}
          />
          <CardControls card={c} onChanged={card.reload} />
        </section>
      )}
      <section aria-labelledby="card-balance">
        <h2 id="card-balance">Balance</h2>
        <ErrorNote error={balance.error} />
        {balance.data && (
          <Facts
            facts={[
              ['Pending', money(balance.data.pending)],
              ['Settled', money(balance.data.settled)],
              ['Settlement complete', money(balance.data.settlement_complete)],
              ['Bounced', money(balance.data.bounced)],
            ]}
          />
        )}
      </section>
      <section aria-labelledby="card-rules">
        <h2 id="card-rules">Auth rules that apply</h2>
        <p>
          Program-wide rules that do not leave this card out, rules on its account, and rules on this card. The ones enforced on an authorization are listed on that transaction's
          card as <code>auth_rule_tokens</code>.
        </p>
        <ErrorNote error={rules.error} />
        <RuleTable rules={rules.data?.data} labelledBy="card-rules" />
        {rules.data && rules.data.data.length === 0 && (
          <p>
            No rule applies to this card (<a href={href('rules')}>write one</a>).
          </p>
        )}
      </section>
      <section aria-labelledby="card-transactions">
        <h2 id="card-transactions">Transactions</h2>
        <ErrorNote error={transactions.error} />
        {transactions.data && <TransactionTable transactions={transactions.data.data} />}
      </section>
      <EventStream path={`/v1/cards/${token}/events`} tick={live.tick} />
    </>
  );
}

function CardControls({ card, onChanged }: { card: any; onChanged: () => void }) {
  const [limit, setLimit] = useState(centsToInput(card.spend_limit));
  const [duration, setDuration] = useState(card.spend_limit_duration);
  const update = useAction(async (body: object) => {
    await patch(`/v1/cards/${card.token}`, body);
    onChanged();
  });
  if (card.state === 'CLOSED') return <p>This card is closed; closing is final.</p>;
  return (
    <>
      <div class="actions">
        {card.state === 'OPEN' ? (
          <button type="button" onClick={() => update.run({ state: 'PAUSED' })} disabled={update.busy}>
            Pause card
          </button>
        ) : (
          <button type="button" onClick={() => update.run({ state: 'OPEN' })} disabled={update.busy}>
            Resume card
          </button>
        )}
        <button type="button" class="danger" disabled={update.busy} onClick={() => confirm('Close this card? Closing is final.') && update.run({ state: 'CLOSED' })}>
          Close card
        </button>
      </div>
      <InlineForm
        onSubmit={() => {
          const cents = parseMoney(limit);
          if (cents === null) return void update.run({ spend_limit: -1 }); // the API names the problem
          void update.run({ spend_limit: cents, spend_limit_duration: duration });
        }}
      >
        <TextField label="Spend limit (USD)" value={limit} onInput={setLimit} hint="0: no limit" />
        <SelectField label="Limit window" value={duration} options={DURATIONS} onChange={setDuration} />
        <button type="submit" disabled={update.busy}>
          Save limit
        </button>
      </InlineForm>
      <ErrorNote error={update.error} />
    </>
  );
}
