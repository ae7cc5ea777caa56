import { randomUUID } from 'node:crypto';
import { SIMULATION_FAULT_POINTS } from '@ledger/event-store';
import { eventually } from '@ledger/test-support';
import { KillHarness, prepareKillHarness, refused } from './kill-harness';
import { cardAndTransactionAmounts } from './ledger-folds';
import type { ServerProcess } from './server-process';

/**
 * SIGKILL at every step of the simulations that write a card and its transaction (void, expiry,
 * clearing, advice, return, return reversal), two intents at once so that one dies mid-write. After a restart
 * the card counts exactly what each transaction says, no intent stands twice, and every answered one
 * stands once. A client retries a refused connection (the request never left); a reset after the
 * request was sent is not retried: its outcome is unknown to the client.
 */
let harness: KillHarness;

interface Intent {
  /** The transaction the intent acts on, known before it is sent (none for a return). */
  readonly transaction?: string;
  readonly body: Record<string, unknown>;
}

interface KilledSimulation {
  /** Under /v1/simulate, or the whole path for the intent (its body is then not sent). */
  readonly path: string | ((intent: Intent) => string);
  /** The transaction's event entry the simulation adds. */
  readonly entry: string;
  prepare(server: ServerProcess, pan: string): Promise<Intent>;
}

const call = (server: ServerProcess, method: string, urlPath: string, body?: unknown) => harness.call(server.baseUrl, method, urlPath, body);

async function authorized(server: ServerProcess, pan: string, amount: number): Promise<string> {
  const answer = await call(server, 'POST', '/v1/simulate/authorize', { pan, amount, descriptor: `Shop ${randomUUID().slice(0, 8)}` });
  expect(answer.status).toBe(200);
  return answer.body.token;
}

async function returned(server: ServerProcess, pan: string, amount: number): Promise<string> {
  const answer = await call(server, 'POST', '/v1/simulate/return', { pan, amount, descriptor: `Refund ${randomUUID().slice(0, 8)}` });
  expect(answer.status).toBe(200);
  return answer.body.token;
}

const SIMULATIONS: Record<string, KilledSimulation> = {
  void: { path: 'void', entry: 'VOID', prepare: async (server, pan) => pending(await authorized(server, pan, 500), { amount: 200 }) },
  'void of type AUTHORIZATION_EXPIRY': {
    path: 'void',
    entry: 'AUTHORIZATION_EXPIRY',
    prepare: async (server, pan) => pending(await authorized(server, pan, 500), { type: 'AUTHORIZATION_EXPIRY' }),
  },
  expire_authorization: {
    path: (intent) => `/v1/transactions/${intent.transaction}/expire_authorization`,
    entry: 'AUTHORIZATION_EXPIRY',
    prepare: async (server, pan) => pending(await authorized(server, pan, 500), {}),
  },
  clearing: { path: 'clearing', entry: 'CLEARING', prepare: async (server, pan) => pending(await authorized(server, pan, 500), {}) },
  advice: { path: 'authorization_advice', entry: 'AUTHORIZATION_ADVICE', prepare: async (server, pan) => pending(await authorized(server, pan, 500), { amount: 800 }) },
  'return reversal': { path: 'return_reversal', entry: 'RETURN_REVERSAL', prepare: async (server, pan) => pending(await returned(server, pan, 300), {}) },
  'credit authorization advice': {
    path: 'credit_authorization_advice',
    entry: 'CREDIT_AUTHORIZATION_ADVICE',
    prepare: async (_server, pan) => ({ body: { pan, amount: 300, descriptor: `Refund ${randomUUID().slice(0, 8)}` } }),
  },
  return: { path: 'return', entry: 'RETURN', prepare: async (_server, pan) => ({ body: { pan, amount: 300, descriptor: `Refund ${randomUUID().slice(0, 8)}` } }) },
};

function pending(transaction: string, body: Record<string, unknown>): Intent {
  return { transaction, body: { token: transaction, ...body } };
}

beforeAll(async () => {
  harness = await prepareKillHarness();
}, 120_000);

afterAll(() => harness?.dispose());

describe.each(Object.keys(SIMULATIONS).map((name) => [name]))('%s', (name) => {
  const simulation = SIMULATIONS[name];

  it.each(SIMULATION_FAULT_POINTS.map((point) => [point]))(
    'SIGKILL at %s: the card counts what each transaction says, no intent stands twice, every answered one once',
    async (point) => {
      let server = await harness.start(point);
      try {
        const created = await call(server, 'POST', '/v1/cards', { type: 'DIGITAL_WALLET', spend_limit: 10_000_000, spend_limit_duration: 'FOREVER' });
        const intents = await Promise.all([simulation.prepare(server, created.body.pan), simulation.prepare(server, created.body.pan)]);
        server.child.kill('SIGUSR2');
        await server.waitFor(/fault armed/);

        const answered = new Map<Intent, string>();
        const restarted = server.exited.then(async (signal) => {
          expect(signal).toBe('SIGKILL');
          server = await harness.start();
        });
        await Promise.all(
          intents.map(async (intent) => {
            for (;;) {
              try {
                const answer =
                  typeof simulation.path === 'string'
                    ? await call(server, 'POST', `/v1/simulate/${simulation.path}`, intent.body)
                    : await call(server, 'POST', simulation.path(intent));
                if (answer.status >= 500) continue;
                expect(answer.status).toBe(200);
                answered.set(intent, answer.body.token ?? intent.transaction);
                return;
              } catch (error) {
                if (!refused(error)) return;
                await restarted;
              }
            }
          }),
        );
        await restarted;
        expect(answered.size).toBeLessThan(intents.length);

        const standing = await eventually('the read models to show what the killed process recorded', async () => {
          const page = (await call(server, 'GET', '/v1/transactions?page_size=1000')).body.data as any[];
          const recorded = (await harness.pool.query(`select count(distinct stream_id)::int as n from events where stream_id like 'transaction-%' and event_type <> 'AuthorizationWithdrawn'`)).rows[0].n;
          return page.length === recorded ? page : null;
        });
        for (const intent of intents) {
          // A return (or a credit) opens its own transaction: find it by the descriptor the intent sent.
          const transactions = intent.transaction
            ? standing.filter((tx) => tx.token === intent.transaction)
            : standing.filter((tx) => tx.merchant.descriptor === intent.body.descriptor);
          const entries = transactions.flatMap((tx) => tx.events.filter((event: { type: string }) => event.type === simulation.entry));
          expect({ intent: intent.body, entries: entries.length }).toEqual({ intent: intent.body, entries: answered.has(intent) ? 1 : expect.any(Number) });
          expect(entries.length).toBeLessThanOrEqual(1);
          for (const tx of transactions) {
            const amounts = await cardAndTransactionAmounts(harness.pool, created.body.token, tx.token);
            expect({ token: tx.token, card: amounts.card }).toEqual({ token: tx.token, card: amounts.transaction });
          }
        }
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    },
    120_000,
  );
});
