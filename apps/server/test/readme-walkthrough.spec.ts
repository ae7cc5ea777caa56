import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { walkthroughVariables } from '@ledger/host';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The README's "Walk-through with curl" as a reader pastes it into bash: first the `BASE=… KEY=…`
 * line the start banner printed (made by the banner's own function), then every ```bash block of the
 * section, literally, against a running ledger. Every step must do what its comment says; the
 * `# STATE` comments after `field` lines are read from the README itself, so a comment that drifts
 * from the answers fails too.
 */
const root = path.resolve(__dirname, '../../..');
const run = promisify(execFile);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Every ```bash block of the README's walk-through section, in order, joined as one script. */
function walkthroughScript(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Walk-through with curl\n');
  if (start < 0) throw new Error('README.md has no "## Walk-through with curl" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const blocks = [...section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((block) => block[1]);
  if (blocks.length === 0) throw new Error('The walk-through section has no ```bash block');
  return blocks.join('\n');
}

/** `... | field state   # PAUSED`: the value each such line promises to print, in order. */
function promisedFieldValues(script: string): string[] {
  return script
    .split('\n')
    .map((line) => /\|\s*field \w+\s+#\s*([A-Z_]+)\s*$/.exec(line)?.[1])
    .filter((value): value is string => value !== undefined);
}

/** A line the script printed that ends in ` HTTP <status>`: the error body and its status. */
function httpLine(line: string): { status: number; body: any } {
  const match = /^(\{.*\}) HTTP (\d{3})$/.exec(line);
  if (!match) throw new Error(`Expected "<json> HTTP <status>", got: ${line}`);
  return { status: Number(match[2]), body: JSON.parse(match[1]) };
}

let t: TestLedger;
beforeAll(async () => {
  t = await startTestLedger();
});
afterAll(async () => {
  await t?.stop();
});

it('pastes as is: no port, key, placeholder or jq of its own', () => {
  const script = walkthroughScript();
  expect(script).not.toMatch(/https?:\/\/|127\.0\.0\.1|localhost/);
  expect(script).not.toMatch(/<[a-z_]+>/);
  expect(script).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  expect(script).not.toMatch(/\bjq\b/);
});

it('stops at once, saying what to paste, when the banner line was not pasted first', async () => {
  const { BASE: _base, KEY: _key, ...env } = process.env;
  const failed = await run('bash', ['-euo', 'pipefail', '-c', walkthroughScript()], { cwd: root, env, timeout: 20_000 }).then(
    () => null,
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  expect(failed).toMatchObject({ code: 1, stdout: '' });
  expect(failed?.stderr).toContain('paste the BASE=... KEY=... line npm start printed');
});

it('the README walk-through pastes into bash and every step does what its comment says', async () => {
  const script = `${walkthroughVariables(t.baseUrl, t.apiKey)}\n${walkthroughScript()}`;
  // Nothing of the test's own environment stands in for the pasted line.
  const { BASE: _base, KEY: _key, ...env } = process.env;
  const { stdout, stderr } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd: root, env, timeout: 20_000 });
  expect(stderr).toBe('');
  const lines = stdout.trimEnd().split('\n');

  // The bare values printed by `| field state` / `| field status` lines are what their comments say.
  const promised = promisedFieldValues(script);
  expect(promised).toEqual(['PAUSED', 'CLOSED', 'CLOSED', 'PENDING', 'SETTLING', 'SETTLED']);
  expect(lines.filter((line) => /^[A-Z_]+$/.test(line))).toEqual(promised);

  const [created, paused, closed, reopen, fetched, cardPage, pending, declined, settling, settledToken, settled, approved, ...rest] = lines;
  expect(rest).toEqual([]);

  const card = JSON.parse(created);
  expect(card).toMatchObject({ type: 'MERCHANT_LOCKED', memo: 'Groceries', spend_limit: 5000, spend_limit_duration: 'MONTHLY', state: 'OPEN' });
  expect(card.pan).toMatch(/^\d{16}$/);
  expect(card.cvv).toMatch(/^\d{3}$/);
  expect([paused, closed, fetched]).toEqual(['PAUSED', 'CLOSED', 'CLOSED']);

  const refused = httpLine(reopen);
  expect(refused.status).toBe(409);
  expect(refused.body).toEqual({ debugging_request_id: expect.stringMatching(UUID), message: expect.stringContaining('CLOSED') });

  expect(JSON.parse(cardPage)).toMatchObject({ data: [{ token: card.token, state: 'CLOSED' }], page: 1, total_entries: 1, total_pages: 1 });

  expect(pending).toBe('PENDING');
  const decline = httpLine(declined);
  expect(decline.status).toBe(422);
  expect(decline.body).toEqual({
    debugging_request_id: expect.stringMatching(UUID),
    message: expect.stringContaining('USER_TRANSACTION_LIMIT'),
    token: expect.stringMatching(UUID),
  });
  expect([settling, settled]).toEqual(['SETTLING', 'SETTLED']);

  const list = JSON.parse(approved);
  expect(list).toMatchObject({ page: 1, total_entries: 1, total_pages: 1 });
  expect(list.data).toHaveLength(1);
  expect(list.data[0]).toMatchObject({
    token: settledToken,
    status: 'SETTLED',
    result: 'APPROVED',
    authorization_amount: 700,
    amount: 650,
    settled_amount: 650,
    merchant: { descriptor: 'Coffee Shop' },
  });
  expect(list.data[0].events.map((event: { type: string }) => event.type)).toEqual(['AUTHORIZATION', 'CLEARING']);

  // The decline was recorded as a transaction of its own, as the comment says.
  const declines = await t.call('GET', '/v1/transactions?result=DECLINED');
  expect(declines.body.data).toEqual([expect.objectContaining({ token: decline.body.token, status: 'DECLINED', result: 'USER_TRANSACTION_LIMIT', amount: 400 })]);
}, 30_000);
