import { useState } from 'preact/hooks';
import { get, Page, post } from '../api';
import { DECLINE_RECIPES } from '../declines';
import { useLive } from '../live';
import { parseMoney } from '../money';
import { href } from '../router';
import { ErrorNote, Field, InlineForm, SelectField, TextField, useAction, useLoad } from '../ui';

/** Lithic's kinds of simulated message (`status`); each opens a transaction of its own (docs/api.md). */
const MESSAGE_KINDS: [string, string][] = [
  ['AUTHORIZATION', 'Authorization: a purchase on hold'],
  ['FINANCIAL_AUTHORIZATION', 'Financial authorization: a purchase cleared at once'],
  ['BALANCE_INQUIRY', 'Balance inquiry: checks the card, spends nothing'],
  ['CREDIT_AUTHORIZATION', 'Credit authorization: a refund waiting for its clearing'],
  ['FINANCIAL_CREDIT_AUTHORIZATION', 'Financial credit authorization: a refund credited at once'],
];
const CREDIT_STATUSES = new Set(['CREDIT_AUTHORIZATION', 'FINANCIAL_CREDIT_AUTHORIZATION']);

/** Amount text to cents, or an error the form shows. */
function cents(text: string, field: string): number {
  const value = parseMoney(text);
  if (value === null) throw new Error(`${field} must be an amount such as 12.50`);
  return value;
}

function Outcome({ action }: { action: { error: unknown; result: any } }) {
  if (action.error) return <ErrorNote error={action.error} />;
  if (!action.result) return null;
  return (
    <p role="status" class="ok">
      Done{action.result.token && (
        <>
          : transaction <a href={href('transactions', action.result.token)}>{action.result.token}</a>
        </>
      )}
      {action.result.settled && ` settled ${action.result.settled.length}, bounced ${action.result.bounced.length}`}.
    </p>
  );
}

export function SimulatePage() {
  const live = useLive();
  const cards = useLoad(() => get<Page<any>>('/v1/cards', { page_size: 100 }), [live.tick]);
  const [cardToken, setCardToken] = useState('');
  const card = cards.data?.data.find((c) => c.token === cardToken) ?? cards.data?.data[cards.data.data.length - 1];
  const [form, setForm] = useState({ status: 'AUTHORIZATION', amount: '10.00', descriptor: 'Coffee Shop', currency: 'USD', cvv: '', pin: '', mcc: '', country: '', merchantId: '' });
  const [recipeReason, setRecipeReason] = useState('');
  const recipe = DECLINE_RECIPES.find((r) => r.reason === recipeReason);
  const set = (name: keyof typeof form) => (value: string) => setForm({ ...form, [name]: value });

  const authorize = useAction(async () => {
    if (!card) throw new Error('Create a card first');
    const body: Record<string, unknown> = { pan: card.pan, descriptor: form.descriptor, amount: cents(form.amount, 'Amount') };
    if (form.status !== 'AUTHORIZATION') body.status = form.status;
    if (form.mcc) body.mcc = form.mcc;
    if (form.country) body.merchant_acceptor_country = form.country;
    if (form.merchantId) body.merchant_acceptor_id = form.merchantId;
    // What only a purchase carries is refused with a credit (docs/api.md), so a credit leaves it out.
    if (!CREDIT_STATUSES.has(form.status)) {
      if (form.currency && form.currency !== 'USD') body.merchant_currency = form.currency;
      if (form.cvv) body.cvv = form.cvv;
      if (form.pin) body.pin = form.pin;
    }
    return post('/v1/simulate/authorize', body);
  });
  const prepare = useAction(async () => (recipe?.prepare && card ? recipe.prepare.run(card) : ''));
  const pickRecipe = (reason: string) => {
    setRecipeReason(reason);
    const chosen = DECLINE_RECIPES.find((r) => r.reason === reason);
    if (chosen?.fill && card) setForm({ ...form, cvv: '', pin: '', ...chosen.fill(card) });
  };

  return (
    <>
      <h1>Simulate network traffic</h1>
      <ErrorNote error={cards.error} />
      <section aria-labelledby="sim-authorize">
        <h2 id="sim-authorize">Authorize</h2>
        <Field label="Card">
          {(id) => (
            <select id={id} value={card?.token ?? ''} onChange={(event) => setCardToken((event.target as HTMLSelectElement).value)}>
              {cards.data?.data.map((c) => (
                <option key={c.token} value={c.token}>
                  •••• {c.last_four} {c.memo} ({c.state})
                </option>
              ))}
            </select>
          )}
        </Field>
        <SelectField label="Decline recipe" value={recipeReason} options={[['', 'none: an ordinary purchase'], ...DECLINE_RECIPES.map((r) => r.reason)]} onChange={pickRecipe} />
        {recipe && (
          <div class="recipe" role="note">
            <p>{recipe.how}</p>
            {recipe.prepare && (
              <button type="button" disabled={prepare.busy} onClick={() => prepare.run()}>
                {recipe.prepare.label}
              </button>
            )}
            {prepare.result && <p role="status">Prepared: {prepare.result}.</p>}
            <ErrorNote error={prepare.error} />
          </div>
        )}
        <InlineForm onSubmit={() => void authorize.run()}>
          <SelectField label="Kind of message" name="status" value={form.status} options={MESSAGE_KINDS} onChange={set('status')} />
          <TextField label="Amount" name="amount" value={form.amount} onInput={set('amount')} hint={form.status === 'BALANCE_INQUIRY' ? 'must be 0 for a balance inquiry' : undefined} />
          <TextField label="Merchant currency" name="currency" value={form.currency} onInput={set('currency')} hint="ISO 4217, e.g. EUR" />
          <TextField label="Descriptor" name="descriptor" value={form.descriptor} onInput={set('descriptor')} />
          <TextField label="CVV presented" name="cvv" value={form.cvv} onInput={set('cvv')} hint="blank: none" />
          <TextField label="PIN presented" name="pin" value={form.pin} onInput={set('pin')} hint="blank: none" />
          <TextField label="MCC" name="mcc" value={form.mcc} onInput={set('mcc')} hint="blank: the default merchant's" />
          <TextField label="Merchant country" name="country" value={form.country} onInput={set('country')} hint="ISO alpha-3, e.g. USA" />
          <TextField label="Merchant id" name="merchant-id" value={form.merchantId} onInput={set('merchantId')} hint="blank: none" />
          <button type="submit" disabled={authorize.busy}>
            Authorize
          </button>
        </InlineForm>
        <Outcome action={authorize} />
      </section>
      <FollowUps />
    </>
  );
}

/** The messages that follow an authorization, each on a transaction token. */
function FollowUps() {
  const [token, setToken] = useState('');
  const [amount, setAmount] = useState('');
  const [returnForm, setReturnForm] = useState({ pan: '', amount: '5.00', descriptor: 'Coffee Shop' });
  const withAmount = (required: boolean) => (amount === '' && !required ? {} : { amount: cents(amount, 'Amount') });
  const send = useAction(async (path: string, body: object) => post(path, body));
  const sendReturn = useAction(async (path: string) => post(path, { pan: returnForm.pan, descriptor: returnForm.descriptor, amount: cents(returnForm.amount, 'Amount') }));
  return (
    <>
      <section aria-labelledby="sim-followups">
        <h2 id="sim-followups">Clearing, void, expiry, advice, settlement</h2>
        <form class="inline-form" onSubmit={(event) => event.preventDefault()}>
          <TextField label="Transaction token" name="token" value={token} onInput={setToken} />
          <TextField label="Amount" name="followup-amount" value={amount} onInput={setAmount} hint="blank: all that is pending (advice needs one)" />
          <button type="button" onClick={() => send.run('/v1/simulate/clearing', { token, ...withAmount(false) })}>
            Clear
          </button>
          <button type="button" onClick={() => send.run('/v1/simulate/void', { token, ...withAmount(false) })}>
            Void
          </button>
          <button type="button" onClick={() => send.run(`/v1/transactions/${encodeURIComponent(token)}/expire_authorization`, {})}>
            Expire
          </button>
          <button type="button" onClick={() => send.run('/v1/simulate/authorization_advice', { token, ...withAmount(true) })}>
            Advice
          </button>
          <button type="button" onClick={() => send.run('/v1/simulate/return_reversal', { token })}>
            Reverse return
          </button>
          <button type="button" onClick={() => send.run('/v1/simulate/settle', token ? { token } : {})}>
            Settle{token ? '' : ' all'}
          </button>
        </form>
        <Outcome action={send} />
      </section>
      <section aria-labelledby="sim-return">
        <h2 id="sim-return">Return, credit advice</h2>
        <p>A return credits the card at once; a credit authorization advice is a refund the network approved, given back once it is cleared.</p>
        <InlineForm onSubmit={() => void sendReturn.run('/v1/simulate/return')}>
          <TextField label="PAN" name="return-pan" value={returnForm.pan} onInput={(pan) => setReturnForm({ ...returnForm, pan })} />
          <TextField label="Amount" name="return-amount" value={returnForm.amount} onInput={(value) => setReturnForm({ ...returnForm, amount: value })} />
          <TextField label="Descriptor" name="return-descriptor" value={returnForm.descriptor} onInput={(descriptor) => setReturnForm({ ...returnForm, descriptor })} />
          <button type="submit">Return</button>
          <button type="button" onClick={() => sendReturn.run('/v1/simulate/credit_authorization_advice')}>
            Credit authorization advice
          </button>
        </InlineForm>
        <Outcome action={sendReturn} />
      </section>
    </>
  );
}
