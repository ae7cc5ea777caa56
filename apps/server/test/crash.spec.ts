import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { callServer, ServerProcess, startServerProcess } from './server-process';
import { TEST_CARD_DATA_KEY } from './test-ledger';

/**
 * Design invariant 2: nothing acknowledged is lost. The server runs as its own process; it is killed
 * with SIGKILL in the middle of a burst of authorizations and started again. Every authorization that
 * was answered 200 or 422 must then be listed exactly once, and the spend recorded on each card must
 * equal what its transactions say.
 */
const root = path.resolve(__dirname, '../../..');
const apiKey = randomUUID();
let pool: Pool;
let env: NodeJS.ProcessEnv;
const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-crash-'));

function startServer(): Promise<ServerProcess> {
  return startServerProcess(root, 'dist/apps/server/src/main.js', env);
}

const call = (baseUrl: string, method: string, urlPath: string, body?: unknown) => callServer(baseUrl, apiKey, method, urlPath, body);

beforeAll(async () => {
  execFileSync(process.execPath, ['tools/build.mjs'], { cwd: root, stdio: 'ignore' });
  const databaseUrl = await workerDatabaseUrl();
  pool = new Pool({ connectionString: databaseUrl, max: 2 });
  await truncateAll(pool);
  chmodSync(dataDir, 0o755);
  env = { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', SANDBOX_API_KEY: apiKey, CARD_DATA_KEY: TEST_CARD_DATA_KEY, LEDGER_DATA_DIR: dataDir };
});

afterAll(async () => {
  await truncateAll(pool);
  await pool.end();
  rmSync(dataDir, { recursive: true, force: true });
});

it('loses nothing acknowledged when the process is killed mid-burst', async () => {
  const first = await startServer();
  const cards = await Promise.all(
    [300, 0, 5000].map(async (limit) => (await call(first.baseUrl, 'POST', '/v1/cards', { type: 'DIGITAL_WALLET', spend_limit: limit, spend_limit_duration: 'FOREVER' })).body),
  );
  const acknowledged: { token: string; status: number }[] = [];
  let killed = false;
  const worker = async (index: number) => {
    for (let i = 0; !killed; i++) {
      const card = cards[(index + i) % cards.length];
      try {
        const answer = await call(first.baseUrl, 'POST', '/v1/simulate/authorize', { pan: card.pan, amount: 25, descriptor: `Burst ${index}` });
        if (answer.status === 200 || answer.status === 422) acknowledged.push({ token: answer.body.token, status: answer.status });
        else throw new Error(`unexpected ${answer.status}: ${JSON.stringify(answer.body)}`);
      } catch (error) {
        if (!killed) throw error;
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, index) => worker(index));
  while (acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 10));
  killed = true;
  first.child.kill('SIGKILL');
  await Promise.all(workers);
  expect(acknowledged.length).toBeGreaterThanOrEqual(60);

  const second = await startServer();
  try {
    // Read-your-writes covers new calls; here the restarted projector must first catch up on what the killed process wrote.
    const decisions = async () =>
      (await pool.query(`select count(*)::int as n from events where event_type in ('CardAuthorizationApproved', 'CardAuthorizationDeclined')`)).rows[0].n as number;
    let listed: any[] = [];
    const deadline = Date.now() + 20_000;
    for (;;) {
      listed = (await call(second.baseUrl, 'GET', '/v1/transactions?page_size=1000')).body.data;
      if (listed.length === (await decisions())) break;
      if (Date.now() > deadline) throw new Error(`${listed.length} transactions listed for ${await decisions()} card decisions`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const listedTokens = listed.map((tx) => tx.token);
    expect(new Set(listedTokens).size).toBe(listedTokens.length);
    for (const { token, status } of acknowledged) {
      const tx = listed.find((candidate) => candidate.token === token);
      expect({ token, result: tx?.result === 'APPROVED' ? 200 : tx ? 422 : 'missing' }).toEqual({ token, result: status });
    }
    for (const card of cards) {
      const approvedOnCard = (
        await pool.query(`select coalesce(sum((data->>'amount')::int), 0)::int as total from events where stream_id = $1 and event_type = 'CardAuthorizationApproved'`, [`card-${card.token}`])
      ).rows[0].total;
      const listedForCard = listed.filter((tx) => tx.card.token === card.token && tx.result === 'APPROVED').reduce((sum, tx) => sum + tx.amount, 0);
      expect({ card: card.token, listed: listedForCard }).toEqual({ card: card.token, listed: approvedOnCard });
      if (card.spend_limit > 0) expect(listedForCard).toBeLessThanOrEqual(card.spend_limit);
    }
  } finally {
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  }
}, 120_000);
