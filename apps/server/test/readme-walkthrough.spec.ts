import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The README's "Walk-through with curl" block, run with bash exactly as a user pastes it, against a
 * running ledger: every step must do what its comment says. The `# STATE` comments after `field`
 * lines are read from the README itself, so a comment that drifts from the answers fails too.
 */
const root = path.resolve(__dirname, '../../..');
const run = promisify(execFile);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The first ```sh block of the README's walk-through section. */
function walkthroughScript(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Walk-through with curl');
  if (start < 0) throw new Error('README.md has no "## Walk-through with curl" section');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(start));
  if (!block) throw new Error('The walk-through section has no ```sh block');
  return block[1];
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
let dataDir: string;
beforeAll(async () => {
  t = await startTestLedger();
  // The script reads the key where `npm start` keeps it: LEDGER_DATA_DIR/sandbox-api-key.
  dataDir = mkdtempSync(path.join(tmpdir(), 'ledger-readme-'));
  writeFileSync(path.join(dataDir, 'sandbox-api-key'), `${t.apiKey}\n`);
});
afterAll(async () => {
  await t?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

it('the README walk-through pastes into bash and every step does what its comment says', async () => {
  const script = walkthroughScript();
  const { stdout, stderr } = await run('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: root,
    env: { ...process.env, BASE: t.baseUrl, LEDGER_DATA_DIR: dataDir },
    timeout: 20_000,
  });
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
