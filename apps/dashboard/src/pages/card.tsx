import { useState } from 'preact/hooks';
import { AccountBalance, AccountBalanceFacts } from '../account-balance';
import { get, Page, patch } from '../api';
import { Dispute, DisputeTable } from '../dispute-table';
import { EventStream } from '../event-stream';
import { Facts } from '../facts';
import { useLive } from '../live';
import { centsToInput, money, parseMoney } from '../money';
import { addressLine, CardStreamEvent, plasticOf } from '../plastic';
import { href } from '../router';
import { RuleTable } from '../rule-table';
import type { AuthRule } from '../rule-words';
import { Badge, ErrorNote, InlineForm, SelectField, TextField, useAction, useLoad, when } from '../ui';
import { DURATIONS, limitText } from './cards';
import { CardTokens } from '../token-table';
import { TransactionTable } from './transactions';

export function CardPage({ token }: { token: string }) {
  const live = useLive();
  const card = useLoad(() => get(`/v1/cards/${token}`), [token, live.tick]);
  const balance = useLoad(() => get(`/v1/cards/${token}/balance`), [token, live.tick]);
  const balances = useLoad(() => get<{ data: AccountBalance[] }>(`/v1/cards/${token}/balances`), [token, live.tick]);
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
        <p>This card's part of the program's financial account, from the account's side: money spent is negative, money held by pending authorizations is pending.</p>
        <ErrorNote error={balances.error} />
        {balances.data?.data[0] && <AccountBalanceFacts balance={balances.data.data[0]} />}
        <h3>Ledger totals</h3>
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
      {c?.type === 'DIGITAL_WALLET' && <CardTokens cardToken={token} />}
      <CardPlastic token={token} tick={live.tick} />
      <CardDisputes transactionTokens={transactions.data?.data.map((t) => t.token)} tick={live.tick} />
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
        <StateButton card={card} onChange={(state) => update.run({ state })} busy={update.busy} />
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

/**
 * The card's move between its states: pause an open card, resume a paused one, activate one whose
 * plastic has arrived (PATCH OPEN); a plastic still to be shipped cannot be activated yet.
 */
function StateButton({ card, onChange, busy }: { card: { state: string }; onChange: (state: string) => void; busy: boolean }) {
  const [text, target] = ({ OPEN: ['Pause card', 'PAUSED'], PAUSED: ['Resume card', 'OPEN'], PENDING_ACTIVATION: ['Activate card', 'OPEN'] } as Record<string, [string, string]>)[card.state] ?? [];
  if (!text) return null;
  return (
    <button type="button" onClick={() => onChange(target)} disabled={busy}>
      {text}
    </button>
  );
}

/** Where the card's latest plastic goes and whether it has shipped; nothing for a card without one. */
function CardPlastic({ token, tick }: { token: string; tick: number }) {
  const events = useLoad(() => get<{ data: CardStreamEvent[] }>(`/v1/cards/${token}/events`), [token, tick]);
  const plastic = events.data && plasticOf(events.data.data);
  if (!plastic) return null;
  return (
    <section aria-labelledby="card-plastic">
      <h2 id="card-plastic">Plastic</h2>
      <Facts
        facts={[
          ['Shipping', plastic.shipped ? <Badge value="SHIPPED" /> : <Badge value="ORDERED" />],
          ['Tracking number', plastic.trackingNumber ?? '—'],
          ['Method', plastic.method],
          ['Address', addressLine(plastic.address)],
        ]}
      />
    </section>
  );
}

/** The disputes of the card's transactions (a dispute names its transaction, not its card). */
function CardDisputes({ transactionTokens, tick }: { transactionTokens: readonly string[] | undefined; tick: number }) {
  const tokens = transactionTokens?.join(',');
  const disputes = useLoad(async () => (tokens ? (await get<Page<Dispute>>('/v1/disputes', { transaction_tokens: tokens, page_size: 100 })).data : tokens === '' ? [] : undefined), [tokens, tick]);
  return (
    <section aria-labelledby="card-disputes">
      <h2 id="card-disputes">Disputes</h2>
      <ErrorNote error={disputes.error} />
      {disputes.data && <DisputeTable disputes={disputes.data} labelledBy="card-disputes" onChanged={disputes.reload} />}
    </section>
  );
}
