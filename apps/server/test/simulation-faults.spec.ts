import { randomUUID } from 'node:crypto';
import { SIMULATION_FAULT_POINTS } from '@ledger/event-store';
import { cardAndTransactionAmounts } from './ledger-folds';
import { AFTER_THE_COMMIT, OneShotFault } from './one-shot-fault';
import { ApiAnswer, startTestLedger, TestLedger } from './test-ledger';

/**
 * Every simulation that writes a card and its transaction, failed once at each step of its path: the
 * caller, retrying every 5xx, ends with exactly one event for its intent; the card counts exactly
 * what the transaction says; and every 5xx it got was the truth (nothing stood, and its token was
 * withdrawn so nothing ever will).
 */

interface Simulation {
  /** Makes what the simulation acts on; returns the request body. */
  prepare(): Promise<Record<string, unknown>>;
  /** Under /v1/simulate, or the whole path the prepared body names (the body is then not sent). */
  readonly path: string | ((body: Record<string, unknown>) => string);
  /** The transaction's event entry the simulation adds. */
  readonly entry: string;
  /** The event that withdraws a failed attempt's token. */
  readonly withdrawal: 'EventTokenWithdrawn' | 'AuthorizationWithdrawn';
  /** What a 5xx's message calls it, where that is not the table's key. */
  readonly named?: string;
}

const faults = new OneShotFault();
let t: TestLedger;
let card: { token: string; pan: string };

const authorized = async (amount: number): Promise<string> => {
  const answer = await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount, descriptor: `Shop ${randomUUID().slice(0, 8)}` } });
  expect(answer.status).toBe(200);
  return answer.body.token;
};

const returned = async (amount: number, descriptor = `Refund ${randomUUID().slice(0, 8)}`): Promise<string> => {
  const answer = await t.call('POST', '/v1/simulate/return', { body: { pan: card.pan, amount, descriptor } });
  expect(answer.status).toBe(200);
  return answer.body.token;
};

const SIMULATIONS: Record<string, Simulation> = {
  void: { path: 'void', entry: 'VOID', withdrawal: 'EventTokenWithdrawn', prepare: async () => ({ token: await authorized(500), amount: 200 }) },
  'void of type AUTHORIZATION_EXPIRY': {
    path: 'void',
    named: 'authorization expiry',
    entry: 'AUTHORIZATION_EXPIRY',
    withdrawal: 'EventTokenWithdrawn',
    prepare: async () => ({ token: await authorized(500), type: 'AUTHORIZATION_EXPIRY' }),
  },
  expire_authorization: {
    named: 'authorization expiry',
    path: (body) => `/v1/transactions/${String(body.token)}/expire_authorization`,
    entry: 'AUTHORIZATION_EXPIRY',
    withdrawal: 'EventTokenWithdrawn',
    prepare: async () => ({ token: await authorized(500) }),
  },
  clearing: { path: 'clearing', entry: 'CLEARING', withdrawal: 'EventTokenWithdrawn', prepare: async () => ({ token: await authorized(500) }) },
  advice: { path: 'authorization_advice', named: 'authorization advice', entry: 'AUTHORIZATION_ADVICE', withdrawal: 'EventTokenWithdrawn', prepare: async () => ({ token: await authorized(500), amount: 800 }) },
  'return reversal': { path: 'return_reversal', entry: 'RETURN_REVERSAL', withdrawal: 'EventTokenWithdrawn', prepare: async () => ({ token: await returned(300) }) },
  'credit authorization advice': {
    path: 'credit_authorization_advice',
    entry: 'CREDIT_AUTHORIZATION_ADVICE',
    withdrawal: 'AuthorizationWithdrawn',
    prepare: async () => ({ pan: card.pan, amount: 300, descriptor: `Refund ${randomUUID().slice(0, 8)}` }),
  },
  'financial credit authorization': {
    path: 'authorize',
    entry: 'FINANCIAL_CREDIT_AUTHORIZATION',
    withdrawal: 'AuthorizationWithdrawn',
    prepare: async () => ({ pan: card.pan, amount: 300, descriptor: `Refund ${randomUUID().slice(0, 8)}`, status: 'FINANCIAL_CREDIT_AUTHORIZATION' }),
  },
  return: {
    path: 'return',
    entry: 'RETURN',
    withdrawal: 'AuthorizationWithdrawn',
    prepare: async () => ({ pan: card.pan, amount: 300, descriptor: `Refund ${randomUUID().slice(0, 8)}` }),
  },
};

beforeAll(async () => {
  t = await startTestLedger({}, { faultPoints: faults });
  const created = await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 10_000_000, spend_limit_duration: 'FOREVER' } });
  card = { token: created.body.token, pan: created.body.pan };
}, 60_000);

afterAll(() => t?.stop());

async function withdrawals(type: string): Promise<number> {
  return (await t.pool.query(`select count(*)::int as n from events where event_type = $1`, [type])).rows[0].n;
}

/** Sends one intent until it gets an answer that is not a 5xx, as a client without Idempotency-Key does. */
async function sendRetryingEvery5xx(path: Simulation['path'], body: Record<string, unknown>): Promise<ApiAnswer[]> {
  const answers: ApiAnswer[] = [];
  for (;;) {
    const answer = typeof path === 'string' ? await t.call('POST', `/v1/simulate/${path}`, { body }) : await t.call('POST', path(body));
    answers.push(answer);
    if (answer.status < 500) return answers;
    if (answers.length > 5) throw new Error(`still ${answer.status} after ${answers.length} attempts: ${JSON.stringify(answer.body)}`);
  }
}

describe.each(Object.keys(SIMULATIONS).map((name) => [name]))('%s', (name) => {
  const simulation = SIMULATIONS[name];

  it.each(SIMULATION_FAULT_POINTS.map((point) => [point]))('failed at %s: one event stands, the card counts what the transaction says, a 5xx meant nothing stood', async (point) => {
    const body = await simulation.prepare();
    const withdrawnBefore = await withdrawals(simulation.withdrawal);
    const firedBefore = faults.fired;
    faults.arm(point);
    const answers = await sendRetryingEvery5xx(simulation.path, body);
    expect(faults.fired).toBe(firedBefore + 1);

    const final = answers[answers.length - 1];
    expect(final.status).toBe(200);
    const token = (final.body.token ?? body.token) as string;
    const listed = (await t.call('GET', `/v1/transactions/${token}`)).body;
    expect(listed.events.filter((event: { type: string }) => event.type === simulation.entry)).toHaveLength(1);

    // The card's spend entry for the transaction is exactly the transaction's amount.
    const amounts = await cardAndTransactionAmounts(t.pool, card.token, token);
    expect(amounts.transaction).toEqual(expect.any(Number));
    expect(amounts.card).toBe(amounts.transaction);

    const failed = answers.slice(0, -1);
    if (AFTER_THE_COMMIT.includes(point)) {
      expect(failed).toEqual([]);
      expect(await withdrawals(simulation.withdrawal)).toBe(withdrawnBefore);
    } else {
      expect(failed.map((answer) => [answer.status, answer.headers.get('x-should-retry'), answer.body.message])).toEqual([
        [503, 'true', expect.stringMatching(new RegExp(`^The ${simulation.named ?? name} was not recorded \\(.*\\); nothing stands under it, so it is safe to send it again$`))],
      ]);
      expect(await withdrawals(simulation.withdrawal)).toBe(withdrawnBefore + 1);
    }
  });
});
