import 'reflect-metadata';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { LiveEventStreams } from '@ledger/gateway';
import { eventually, LocalReceiver } from '@ledger/test-support';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * `npm run admin -- listen` as a child process, as a developer runs it: it follows the event stream
 * of a real service and forwards every event to a real local receiver, which verifies each delivery
 * with the standardwebhooks library and the secret the command printed. The service restarts on
 * the same database and port mid-way, and the command picks up where it was.
 */
const root = path.resolve(__dirname, '../../..');
let t: TestLedger;
const receiver = new LocalReceiver();
let cli: ChildProcess | null = null;
let output = '';

function startListen(args: string[]): ChildProcess {
  output = '';
  const child = spawn(process.execPath, ['dist/apps/admin/src/main.js', 'listen', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function cardLife(): Promise<string> {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'MERCHANT_LOCKED' } })).body;
  await t.call('PATCH', `/v1/cards/${card.token}`, { body: { state: 'PAUSED' } });
  await t.call('PATCH', `/v1/cards/${card.token}`, { body: { state: 'OPEN' } });
  const authorized = await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 700, descriptor: 'Listen Shop' } });
  expect(authorized.status).toBe(200);
  expect((await t.call('POST', '/v1/simulate/clearing', { body: { token: authorized.body.token, amount: 700 } })).status).toBe(200);
  return card.token;
}
const EVENTS_PER_LIFE = 6;

beforeAll(async () => {
  execFileSync(process.execPath, ['tools/build.mjs'], { cwd: root, stdio: 'ignore' });
  await receiver.start();
  t = await startTestLedger({});
}, 180_000);

afterAll(async () => {
  cli?.kill('SIGKILL');
  await t?.stop();
  await receiver.stop();
});

it("forwards a card's life signed per Standard Webhooks, resumes after the service restarts, and ends cleanly on Ctrl-C", async () => {
  cli = startListen(['--api-key', t.apiKey, '--forward-to', receiver.url('/hook'), '--base-url', t.baseUrl]);
  const secret = (await eventually('the session secret', async () => /secret for this session: (whsec_\S+)/.exec(output)?.[1]))!;
  await eventually('the stream open', async () => output.includes('Forwarding events of'));
  // The stream starts with the next event: wait until the command is connected before acting.
  await eventually('the command connected', async () => t.ledger.app.get(LiveEventStreams).count > 0);

  await cardLife();
  await eventually('the first life forwarded', async () => receiver.requestsTo('/hook').length >= EVENTS_PER_LIFE);

  // The service goes away and comes back on the same port; events made before the command is back
  // reach it through Last-Event-ID.
  await t.restart();
  await cardLife();
  const deliveries = await eventually('both lives forwarded', async () => receiver.requestsTo('/hook').length >= 2 * EVENTS_PER_LIFE && receiver.requestsTo('/hook'));
  expect(output).toMatch(/stream lost/);

  const ids = deliveries.map((delivery) => String(delivery.headers['webhook-id']));
  expect(new Set(ids).size).toBe(2 * EVENTS_PER_LIFE);
  const webhook = new Webhook(secret);
  for (const delivery of deliveries) {
    expect(() => webhook.verify(delivery.raw, delivery.headers as Record<string, string>)).not.toThrow();
    // Each body is the event's webhook body exactly as the events feed has it.
    const event = (await t.call('GET', `/v1/events/${delivery.headers['webhook-id']}`)).body;
    expect(delivery.body).toEqual(event.payload);
    // One printed line per event: its type, its token and the receiver's status.
    expect(output).toMatch(new RegExp(`--> ${event.event_type.replace('.', '\\.')}\\s+${event.token}  <-- \\[200\\]`));
  }
  // In the service's order, none missed: every event of the program since the command started.
  const listed = (await t.call('GET', '/v1/events?page_size=100')).body.data.map((event: { token: string }) => event.token);
  expect([...ids].sort()).toEqual([...listed].sort());

  cli.kill('SIGINT');
  expect(await exited(cli)).toBe(0);
  expect(output).toMatch(/Stopped\.\n$/);
}, 120_000);

it('refuses a missing --forward-to, an unknown event type, an unknown flag and a flag without its value before connecting', async () => {
  const refusals: [string[], RegExp][] = [
    [['--api-key', t.apiKey], /listen needs --forward-to URL/],
    [['--api-key', t.apiKey, '--forward-to', receiver.url('/x'), '--events', 'card.deleted'], /--events must be/],
    [['--api-key', t.apiKey, '--forward', receiver.url('/x')], /listen: Unknown option '--forward'/],
    [['--forward-to', receiver.url('/x'), '--api-key'], /listen: Option '--api-key <value>' argument missing/],
  ];
  for (const [args, message] of refusals) {
    const child = startListen(args);
    expect(await exited(child)).toBe(2);
    expect(output).toMatch(message);
  }
});

it('refuses a mistyped flag of a command that needs the database before opening one', async () => {
  output = '';
  const child = spawn(process.execPath, ['dist/apps/admin/src/main.js', 'verify', '--disgest', 'digest.json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' } });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  expect(await exited(child)).toBe(2);
  expect(output).toMatch(/verify: Unknown option '--disgest'/);
});
