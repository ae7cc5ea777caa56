import { ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { isValidCardNumber } from '@ledger/domain';
import { closedPort } from '@ledger/test-support';

/**
 * The README's quick start as a user types it: `npm start` with no DATABASE_URL brings the service
 * up on an embedded PostgreSQL, prints the base URL and the sandbox api-key, and that key creates a
 * complete card. A restart keeps the key and the cards; the admin CLI joins the running database.
 */
const root = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

interface Started {
  child: ChildProcess;
  baseUrl: string;
  apiKey: string;
  dashboardUrl: string;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
}

/** `detached`: in a process group of its own, as a terminal runs a command (Ctrl-C signals the whole group). */
function npmStart(env: NodeJS.ProcessEnv, detached = false): Promise<Started> {
  const child = spawn('npm', ['start'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no base URL within 90 s:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /base URL:\s+(\S+)/.exec(output);
      const key = /sandbox api-key:\s+(\S+)/.exec(output);
      const dashboard = /dashboard:\s+(\S+)/.exec(output);
      if (url && key && dashboard) {
        clearTimeout(timer);
        resolve({ child, baseUrl: url[1], apiKey: key[1], dashboardUrl: dashboard[1], output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
}

/** Nest's bookkeeping of modules, controllers and routes: about ninety lines at info, which buried the banner. */
const FRAMEWORK_START_LINE = /"context":"(InstanceLoader|RoutesResolver|RouterExplorer)"/;

/** The printed lines before the banner, and those after it. */
function aroundBanner(output: string): { before: string[]; after: string[] } {
  const lines = output.split('\n');
  const first = lines.indexOf('Card ledger is up.');
  const last = lines.findIndex((line, index) => index > first && line.startsWith('  dashboard:'));
  if (first < 0 || last < 0) throw new Error(`No banner in:\n${output}`);
  return { before: lines.slice(0, first), after: lines.slice(last + 1) };
}

async function stop(started: Started): Promise<void> {
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  await exited;
}

describe('npm start on the embedded default', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-start-'));
  // The embedded server runs as the postgres user when we are root; it must reach its folder.
  chmodSync(dataDir, 0o755);
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const { DATABASE_URL: _unset, SANDBOX_API_KEY: _alsoUnset, ...inherited } = process.env;
    env = { ...inherited, PORT: '0', LEDGER_DATA_DIR: dataDir, EMBEDDED_POSTGRES_PORT: String(await closedPort()) };
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts, creates a complete card with the printed key, and keeps both across a restart', async () => {
    const first = await npmStart(env);
    let cardToken: string;
    try {
      expect(first.apiKey).toMatch(/^[0-9a-f-]{36}$/);
      // The banner comes after the start lines (the last of Nest's among them), which are a few, not
      // Nest's ninety; it carries the line the README's walk-through starts with.
      const { before } = aroundBanner(first.output());
      expect(before.some((line) => line.includes('Nest application successfully started'))).toBe(true);
      expect(before.filter((line) => line.startsWith('{')).length).toBeLessThan(20);
      expect(first.output()).toContain(`\n  BASE=${first.baseUrl} KEY=${first.apiKey}\n`);
      const health = await fetch(`${first.baseUrl}/health`);
      expect(health.status).toBe(200);
      // The banner ends with the dashboard, which the build made and the service serves.
      expect(first.dashboardUrl).toBe(`${first.baseUrl}/dashboard`);
      const page = await fetch(first.dashboardUrl);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const script = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(await page.text());
      expect(script).not.toBeNull();
      expect((await fetch(`${first.baseUrl}${script![1]}`)).status).toBe(200);
      const response = await fetch(`${first.baseUrl}/v1/cards`, {
        method: 'POST',
        headers: { authorization: `api-key ${first.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'SINGLE_USE', memo: 'quick start' }),
      });
      expect(response.status).toBe(200);
      const card = (await response.json()) as any;
      expect(isValidCardNumber(card.pan)).toBe(true);
      expect(card).toMatchObject({ type: 'SINGLE_USE', memo: 'quick start', state: 'OPEN', cvv: expect.stringMatching(/^\d{3}$/) });
      expect(card.funding.token).toMatch(/^[0-9a-f-]{36}$/);
      cardToken = card.token;

      const admin = await run('npm', ['run', 'admin', '--silent', '--', 'create-program', 'Acme'], { cwd: root, env });
      const program = JSON.parse(admin.stdout);
      expect(program).toMatchObject({ name: 'Acme', program_token: expect.any(String), api_key: expect.any(String) });
      const acme: Response = await fetch(`${first.baseUrl}/v1/cards`, { headers: { authorization: `api-key ${program.api_key}` } });
      expect((await acme.json()) as any).toMatchObject({ data: [], total_entries: 0 });
    } finally {
      await stop(first);
    }
    // At the default LOG_LEVEL no route-mapping line was printed at all, before the banner or after it.
    expect(first.output()).not.toMatch(FRAMEWORK_START_LINE);
    expect(aroundBanner(first.output()).after.join('\n')).not.toContain('"context":"NestApplication"');

    // LOG_LEVEL=debug still lists every mapped route, at debug, and still before the banner.
    const second = await npmStart({ ...env, LOG_LEVEL: 'debug' });
    try {
      const { before, after } = aroundBanner(second.output());
      expect(before).toContainEqual(expect.stringMatching(/"level":20,.*"context":"RouterExplorer","msg":"Mapped \{\/v1\/cards, POST\} route"/));
      expect(after.join('\n')).not.toMatch(FRAMEWORK_START_LINE);
      expect(second.apiKey).toBe(first.apiKey);
      const again = await fetch(`${second.baseUrl}/v1/cards/${cardToken}`, { headers: { authorization: `api-key ${second.apiKey}` } });
      expect(again.status).toBe(200);
      expect(((await again.json()) as any).memo).toBe('quick start');
    } finally {
      await stop(second);
    }
  }, 240_000);

  it('Ctrl-C drains and stops: exit 0 after the drain, no embedded server left', async () => {
    // A data folder and port of its own: npm may exit on a signal before the service it ran has
    // stopped, and a start that found the previous test's server still up would join it.
    const ownDir = mkdtempSync(path.join(tmpdir(), 'ledger-ctrl-c-'));
    chmodSync(ownDir, 0o755);
    const started = await npmStart({ ...env, LEDGER_DATA_DIR: ownDir, EMBEDDED_POSTGRES_PORT: String(await closedPort()) }, true);
    const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group, the embedded server's too when it is in it.
    process.kill(-started.child.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    // Before, the embedded-postgres package's exit hook stopped its server and exited (130) at once.
    expect(aroundBanner(started.output()).after.join('\n')).toContain('SIGINT: draining, then stopping');
    const { stdout } = await run('pgrep', ['-f', `postgres -D ${path.join(ownDir, 'postgres')}`]).catch(() => ({ stdout: '' }));
    expect(stdout.trim()).toBe('');
    rmSync(ownDir, { recursive: true, force: true });
  }, 120_000);
});
