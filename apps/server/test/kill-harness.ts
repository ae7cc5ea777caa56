import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { callServer, ServerProcess, startServerProcess } from './server-process';
import { TEST_CARD_DATA_KEY } from './test-ledger';

const root = path.resolve(__dirname, '../../..');
// Inside the checkout's dist/, so its node_modules resolve; rebuilt by every run (tools/build.mjs clears dist/).
const serverEntry = path.join(root, 'dist/apps/server/fault-injected-server.js');

/**
 * The build leaves test code out of dist/, so the entry is compiled here, with the build's SWC
 * options, and pointed at the built modules.
 */
function buildServerEntry(): void {
  const swc = require('@swc/core');
  const swcOptions = require(path.join(root, 'tools/swc-options.cjs'));
  const source = readFileSync(path.join(__dirname, 'fault-injected-server.ts'), 'utf8');
  const { code } = swc.transformSync(source, { ...swcOptions({ rewritePaths: false }), filename: 'fault-injected-server.ts' });
  writeFileSync(
    serverEntry,
    code
      .replace(`require("@ledger/runtime")`, `require(${JSON.stringify(path.join(root, 'dist/libs/runtime/src/index.js'))})`)
      .replace(`require("@ledger/host")`, `require(${JSON.stringify(path.join(root, 'dist/libs/host/src/index.js'))})`),
  );
}

/** The service as its own process (fault-injected-server.ts), killed with SIGKILL at one step. */
export interface KillHarness {
  readonly pool: Pool;
  /** Starts the server; with `killAt`, it dies the first time it passes that point once armed. */
  start(killAt?: string): Promise<ServerProcess>;
  call(baseUrl: string, method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: any }>;
  dispose(): Promise<void>;
}

export async function prepareKillHarness(): Promise<KillHarness> {
  execFileSync(process.execPath, ['tools/build.mjs'], { cwd: root, stdio: 'ignore' });
  buildServerEntry();
  const apiKey = randomUUID();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-kills-'));
  chmodSync(dataDir, 0o755);
  const databaseUrl = await workerDatabaseUrl();
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  await truncateAll(pool);
  const env = { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', SANDBOX_API_KEY: apiKey, CARD_DATA_KEY: TEST_CARD_DATA_KEY, LEDGER_DATA_DIR: dataDir };
  return {
    pool,
    start: (killAt) => startServerProcess(root, serverEntry, { ...env, FAULT_KILL_AT: killAt ?? '' }),
    call: (baseUrl, method, urlPath, body) => callServer(baseUrl, apiKey, method, urlPath, body),
    dispose: async () => {
      await truncateAll(pool);
      await pool.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** fetch wraps the socket's error; ECONNREFUSED means the request never reached a server. */
export const refused = (error: unknown) => (error as { cause?: { code?: string } })?.cause?.code === 'ECONNREFUSED';
