import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { AUTHORIZATION_FAULT_POINTS } from '@ledger/event-store';
import { eventually } from '@ledger/test-support';
import { KillHarness, prepareKillHarness, refused } from './kill-harness';
import type { ServerProcess } from './server-process';

/**
 * Issue 14: SIGKILL between every pair of steps of the authorization path (the server runs as its own
 * process, fault-injected-server.ts). After a restart every authorization that was answered is listed
 * with the answered result, and a client that retries every 5xx, and a refused connection (the
 * request never left: nothing can stand), never ends with two approvals for one intent. A reset
 * connection after the request was sent is not retried: its outcome is unknown to the client.
 */
let harness: KillHarness;
let pool: Pool;
const startServer = (killAt?: string): Promise<ServerProcess> => harness.start(killAt);
const call = (baseUrl: string, method: string, urlPath: string, body?: unknown) => harness.call(baseUrl, method, urlPath, body);

beforeAll(async () => {
  harness = await prepareKillHarness();
  pool = harness.pool;
}, 120_000);

afterAll(() => harness?.dispose());

it.each(AUTHORIZATION_FAULT_POINTS.map((point) => [point]))(
  'SIGKILL at %s: every answered authorization is listed as answered, no intent approved twice',
  async (point) => {
    let server = await startServer(point);
    const pan = (await call(server.baseUrl, 'POST', '/v1/cards', { type: 'DIGITAL_WALLET', spend_limit: 1_000_000, spend_limit_duration: 'FOREVER' })).body.pan;
    server.child.kill('SIGUSR2');
    await server.waitFor(/fault armed/);

    const answered: { intent: string; token: string; status: number }[] = [];
    const unknown: string[] = [];
    const intents = Array.from({ length: 4 }, () => `Kill ${randomUUID().slice(0, 8)}`);
    const restarted = server.exited.then(async (signal) => {
      expect(signal).toBe('SIGKILL');
      server = await startServer();
    });
    // Four intents at once: one meets the armed point and the process dies under all of them.
    await Promise.all(
      intents.map(async (intent) => {
        for (;;) {
          try {
            const answer = await call(server.baseUrl, 'POST', '/v1/simulate/authorize', { pan, amount: 100, descriptor: intent });
            if (answer.status >= 500) continue;
            answered.push({ intent, token: answer.body.token, status: answer.status });
            return;
          } catch (error) {
            if (!refused(error)) {
              unknown.push(intent);
              return;
            }
            await restarted;
          }
        }
      }),
    );
    await restarted;
    try {
      expect(unknown.length).toBeGreaterThan(0);
      // The restarted projector catches up on what the killed process recorded: wait for it.
      const recorded = async () => (await pool.query(`select count(*)::int as n from events where event_type = 'TransactionAuthorized'`)).rows[0].n as number;
      const listed = await eventually('the read models to list every recorded authorization', async () => {
        const page = (await call(server.baseUrl, 'GET', '/v1/transactions?page_size=1000')).body.data as any[];
        return page.length === (await recorded()) ? page : null;
      });
      for (const { token, status } of answered) {
        const tx = listed.find((candidate) => candidate.token === token);
        expect({ token, result: tx?.result === 'APPROVED' ? 200 : tx ? 422 : 'missing' }).toEqual({ token, result: status });
      }
      for (const intent of intents) {
        const approved = listed.filter((tx) => tx.merchant.descriptor === intent && tx.result === 'APPROVED');
        expect({ intent, approved: approved.length }).toEqual({ intent, approved: answered.some((a) => a.intent === intent) ? 1 : expect.any(Number) });
        expect(approved.length).toBeLessThanOrEqual(1);
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  },
  120_000,
);
