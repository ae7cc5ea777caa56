import { useState } from 'preact/hooks';
import { patch, post } from '../api';
import { Column, DataTable } from '../data-table';
import { money, parseMoney } from '../money';
import { ListFilters, ListPager, usePagedList } from '../paged-list';
import { href } from '../router';
import { Badge, ErrorNote, InlineForm, SelectField, TextField, useAction, when } from '../ui';

export const CARD_TYPES = ['SINGLE_USE', 'MERCHANT_LOCKED', 'DIGITAL_WALLET'];
export const DURATIONS = ['TRANSACTION', 'MONTHLY', 'ANNUALLY', 'FOREVER'];
const STATES = ['', 'OPEN', 'PAUSED', 'CLOSED'];

export function CardsPage() {
  const paged = usePagedList('/v1/cards', { state: '', memo: '', begin: '', end: '', page_size: '20' });
  const { list: cards, filters, set } = paged;
  const columns: Column<any>[] = [
    { header: 'Card', cell: (card) => <a href={href('cards', card.token)}>•••• {card.last_four}</a> },
    { header: 'Memo', cell: (card) => card.memo },
    { header: 'Type', cell: (card) => card.type },
    { header: 'State', cell: (card) => <Badge value={card.state} /> },
    { header: 'Spend limit', cell: (card) => limitText(card) },
    { header: 'Created', cell: (card) => when(card.created) },
    { header: 'Actions', class: 'actions', cell: (card) => <CardActions card={card} onChanged={cards.reload} /> },
  ];
  return (
    <>
      <h1>Cards</h1>
      <CreateCard onCreated={cards.reload} />
      <section aria-labelledby="card-list">
        <h2 id="card-list">All cards</h2>
        <ListFilters paged={paged}>
          <SelectField label="State" value={filters.state} options={STATES} onChange={set('state')} />
          <TextField label="Memo contains" value={filters.memo} onInput={set('memo')} />
          <TextField label="Created from" type="date" value={filters.begin} onInput={set('begin')} />
          <TextField label="Created before" type="date" value={filters.end} onInput={set('end')} />
        </ListFilters>
        <ErrorNote error={cards.error} />
        <DataTable columns={columns} rows={cards.data?.data} keyOf={(card) => card.token} />
        {cards.data && cards.data.data.length === 0 && <p>No cards match.</p>}
        <ListPager paged={paged} />
      </section>
    </>
  );
}

export function limitText(card: { spend_limit: number; spend_limit_duration: string }): string {
  return card.spend_limit === 0 ? 'no limit' : `${money(card.spend_limit)} ${card.spend_limit_duration.toLowerCase()}`;
}

/** Pause, resume or close a card of the list, each labelled with the card it acts on. */
function CardActions({ card, onChanged }: { card: any; onChanged: () => void }) {
  const change = useAction(async (body: object) => {
    await patch(`/v1/cards/${card.token}`, body);
    onChanged();
  });
  const label = `card ending ${card.last_four}`;
  return (
    <>
      {card.state === 'OPEN' && (
        <button type="button" aria-label={`Pause ${label}`} disabled={change.busy} onClick={() => change.run({ state: 'PAUSED' })}>
          Pause
        </button>
      )}
      {card.state === 'PAUSED' && (
        <button type="button" aria-label={`Resume ${label}`} disabled={change.busy} onClick={() => change.run({ state: 'OPEN' })}>
          Resume
        </button>
      )}
      {card.state !== 'CLOSED' && (
        <button
          type="button"
          class="danger"
          aria-label={`Close ${label}`}
          disabled={change.busy}
          onClick={() => confirm(`Close the ${label}? Closing is final.`) && change.run({ state: 'CLOSED' })}
        >
          Close
        </button>
      )}
      <ErrorNote error={change.error} />
    </>
  );
}

function CreateCard({ onCreated }: { onCreated: () => void }) {
  const [form, setForm] = useState({ type: 'DIGITAL_WALLET', memo: '', spend_limit: '', spend_limit_duration: 'MONTHLY', state: 'OPEN' });
  const [invalid, setInvalid] = useState<string | null>(null);
  const create = useAction(async () => {
    const limit = form.spend_limit === '' ? 0 : parseMoney(form.spend_limit);
    if (limit === null) throw new Error('Spend limit must be an amount such as 50 or 12.50');
    const card = await post('/v1/cards', { type: form.type, memo: form.memo, state: form.state, spend_limit: limit, spend_limit_duration: form.spend_limit_duration });
    onCreated();
    return card;
  });
  const set = (name: keyof typeof form) => (value: string) => setForm({ ...form, [name]: value });
  return (
    <section aria-labelledby="create-card">
      <h2 id="create-card">Create a card</h2>
      <InlineForm
        onSubmit={() => {
          setInvalid(null);
          void create.run();
        }}
      >
        <SelectField label="Type" name="type" value={form.type} options={CARD_TYPES} onChange={set('type')} />
        <TextField label="Memo" name="memo" value={form.memo} onInput={set('memo')} />
        <TextField label="Spend limit (USD)" name="spend_limit" value={form.spend_limit} onInput={set('spend_limit')} placeholder="none" hint="blank or 0: no limit" />
        <SelectField label="Limit window" name="spend_limit_duration" value={form.spend_limit_duration} options={DURATIONS} onChange={set('spend_limit_duration')} />
        <SelectField label="Initial state" name="state" value={form.state} options={['OPEN', 'PAUSED']} onChange={set('state')} />
        <button type="submit" disabled={create.busy}>
          Create card
        </button>
      </InlineForm>
      <ErrorNote error={invalid ?? create.error} />
      {create.result && (
        <p role="status" class="ok">
          Created <a href={href('cards', create.result.token)}>card •••• {create.result.last_four}</a>: PAN <code>{create.result.pan}</code>, CVV <code>{create.result.cvv}</code>, expires {create.result.exp_month}/{create.result.exp_year}.
        </p>
      )}
    </section>
  );
}
