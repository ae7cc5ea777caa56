import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The program's own authorization endpoint, a real local HTTP server: its answer decides, and a
 * timeout, an unreachable endpoint or an unusable answer each get their decline reason.
 */
let t: TestLedger;
let endpoint: Server;
let endpointUrl: string;
const received: { body: any; verified: boolean }[] = [];
let secret = '';

/** The test endpoint answers by the merchant descriptor it is asked about. */
function answer(request: IncomingMessage, response: ServerResponse, raw: string): void {
  const body = JSON.parse(raw);
  let verified = false;
  try {
    new Webhook(secret).verify(raw, request.headers as Record<string, string>);
    verified = true;
  } catch {
    verified = false;
  }
  received.push({ body, verified });
  const reply = (status: number, payload: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(payload));
  };
  switch (body.merchant.descriptor) {
    case 'approve':
      return reply(200, { result: 'APPROVED' });
    case 'no-funds':
      return reply(200, { result: 'INSUFFICIENT_FUNDS' });
    case 'merchant':
      return reply(200, { result: 'UNAUTHORIZED_MERCHANT' });
    case 'partial':
      return reply(200, { result: 'APPROVED', approved_amount: 60 });
    case 'nonsense':
      return reply(200, { result: 'MAYBE' });
    case 'broken':
      return reply(500, { error: 'boom' });
    case 'slow':
      setTimeout(() => reply(200, { result: 'APPROVED' }), 1500);
      return;
    default:
      return reply(200, { result: 'APPROVED' });
  }
}

beforeAll(async () => {
  t = await startTestLedger({ RECONCILER_LAG_MS: '0' });
  endpoint = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => answer(request, response, raw));
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  endpointUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/asa`;
});

afterAll(async () => {
  await t?.stop();
  await new Promise((resolve) => endpoint?.close(resolve));
});

async function enrolledProgram(url: string, timeoutMs = 300) {
  const program = await t.createProgram('asa');
  const enrolled = await t.call('PUT', '/v1/auth_stream', { apiKey: program.apiKey, body: { url, timeout_ms: timeoutMs } });
  expect(enrolled.status).toBe(200);
  expect(enrolled.body).toEqual({ url, timeout_ms: timeoutMs, secret: expect.stringMatching(/^whsec_/) });
  secret = enrolled.body.secret;
  const card = (await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'DIGITAL_WALLET', memo: 'asa card' } })).body;
  const authorize = (descriptor: string, extra: Record<string, unknown> = {}) =>
    t.call('POST', '/v1/simulate/authorize', { apiKey: program.apiKey, body: { pan: card.pan, amount: 100, descriptor, ...extra } });
  return { program, card, authorize };
}

it('asks the endpoint with a signed request and follows its approval', async () => {
  const { card, authorize } = await enrolledProgram(endpointUrl);
  received.length = 0;
  const answer = await authorize('approve');
  expect(answer.status).toBe(200);
  expect(received).toHaveLength(1);
  expect(received[0].verified).toBe(true);
  expect(received[0].body).toMatchObject({
    token: answer.body.token,
    status: 'AUTHORIZATION',
    amount: 100,
    merchant: { descriptor: 'approve' },
    card: { token: card.token, last_four: card.last_four, memo: 'asa card' },
  });
  expect(JSON.stringify(received[0].body)).not.toContain(card.pan);
});

it.each([
  ['no-funds', 'INSUFFICIENT_FUNDS_PRELOAD'],
  ['merchant', 'UNAUTHORIZED_MERCHANT'],
  ['nonsense', 'SWITCH_INOPERATIVE_ADVICE'],
  ['broken', 'SWITCH_INOPERATIVE_ADVICE'],
  ['slow', 'UNKNOWN_HOST_TIMEOUT'],
])('an endpoint answering like "%s" declines with %s', async (descriptor, reason) => {
  const { authorize } = await enrolledProgram(endpointUrl);
  const answer = await authorize(descriptor);
  expect(answer.status).toBe(422);
  expect(answer.body.message).toContain(`(${reason})`);
});

it('an unreachable endpoint declines with SWITCH_INOPERATIVE_ADVICE', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const { authorize } = await enrolledProgram(`http://127.0.0.1:${port}/gone`);
  const answer = await authorize('approve');
  expect(answer.status).toBe(422);
  expect(answer.body.message).toContain('(SWITCH_INOPERATIVE_ADVICE)');
});

it('approves a smaller amount only where the request allows partial approval', async () => {
  const { program, authorize } = await enrolledProgram(endpointUrl);
  const full = await authorize('partial');
  const partial = await authorize('partial', { partial_approval_capable: true });
  const amountOf = async (token: string) => (await t.call('GET', `/v1/transactions/${token}`, { apiKey: program.apiKey })).body.amount;
  expect(await amountOf(full.body.token)).toBe(100);
  expect(await amountOf(partial.body.token)).toBe(60);
});

it("is not asked when the card's own checks decline, and not after disenrolling", async () => {
  const { program, card, authorize } = await enrolledProgram(endpointUrl);
  await t.call('PATCH', `/v1/cards/${card.token}`, { apiKey: program.apiKey, body: { state: 'PAUSED' } });
  received.length = 0;
  expect((await authorize('no-funds')).body.message).toContain('(CARD_PAUSED)');
  expect(received).toHaveLength(0);
  await t.call('PATCH', `/v1/cards/${card.token}`, { apiKey: program.apiKey, body: { state: 'OPEN' } });
  expect((await t.call('DELETE', '/v1/auth_stream', { apiKey: program.apiKey })).status).toBe(200);
  expect((await t.call('GET', '/v1/auth_stream', { apiKey: program.apiKey })).status).toBe(404);
  expect((await authorize('no-funds')).status).toBe(200);
  expect(received).toHaveLength(0);
});

it('validates the enrollment', async () => {
  const program = await t.createProgram('asa-bad');
  for (const body of [{ url: 'not a url' }, { url: 'ftp://example.com/x' }, { url: endpointUrl, timeout_ms: 50 }, { url: endpointUrl, timeout_ms: 7000 }]) {
    expect((await t.call('PUT', '/v1/auth_stream', { apiKey: program.apiKey, body })).status).toBe(400);
  }
});
