import { Webhook } from 'standardwebhooks';
import { deadUrl, LocalReceiver, ReceivedRequest, ReceiverAnswer } from '@ledger/test-support';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The program's own authorization endpoint, a real local HTTP server: its answer decides, and a
 * timeout, an unreachable endpoint or an unusable answer each get their decline reason.
 */
let t: TestLedger;
let endpointUrl: string;
/** The secret of the program enrolled last: the one its requests must be signed with. */
let secret = '';

/** The test endpoint answers by the merchant descriptor it is asked about. */
function answer(request: ReceivedRequest): ReceiverAnswer {
  switch (request.body?.merchant?.descriptor) {
    case 'approve':
      return { status: 200, body: { result: 'APPROVED' } };
    case 'no-funds':
      return { status: 200, body: { result: 'INSUFFICIENT_FUNDS' } };
    case 'merchant':
      return { status: 200, body: { result: 'UNAUTHORIZED_MERCHANT' } };
    case 'partial':
      return { status: 200, body: { result: 'APPROVED', approved_amount: 60 } };
    case 'nonsense':
      return { status: 200, body: { result: 'MAYBE' } };
    case 'broken':
      return { status: 500, body: { error: 'boom' } };
    case 'slow':
      return { status: 200, body: { result: 'APPROVED' }, delayMs: 1500 };
    default:
      return { status: 200, body: { result: 'APPROVED' } };
  }
}
const endpoint = new LocalReceiver(answer);

function signedWithSecret(request: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(request.raw, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  t = await startTestLedger({});
  endpointUrl = (await endpoint.start()).url('/asa');
});

afterAll(async () => {
  await t?.stop();
  await endpoint.stop();
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
  endpoint.clear();
  const answer = await authorize('approve');
  expect(answer.status).toBe(200);
  expect(endpoint.requests).toHaveLength(1);
  expect(signedWithSecret(endpoint.requests[0])).toBe(true);
  expect(endpoint.requests[0].body).toMatchObject({
    token: answer.body.token,
    status: 'AUTHORIZATION',
    amount: 100,
    merchant: { descriptor: 'approve' },
    card: { token: card.token, last_four: card.last_four, memo: 'asa card' },
  });
  expect(JSON.stringify(endpoint.requests[0].body)).not.toContain(card.pan);
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
  const { authorize } = await enrolledProgram(await deadUrl('/gone'));
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
  endpoint.clear();
  expect((await authorize('no-funds')).body.message).toContain('(CARD_PAUSED)');
  expect(endpoint.requests).toHaveLength(0);
  await t.call('PATCH', `/v1/cards/${card.token}`, { apiKey: program.apiKey, body: { state: 'OPEN' } });
  expect((await t.call('DELETE', '/v1/auth_stream', { apiKey: program.apiKey })).status).toBe(200);
  expect((await t.call('GET', '/v1/auth_stream', { apiKey: program.apiKey })).status).toBe(404);
  expect((await authorize('no-funds')).status).toBe(200);
  expect(endpoint.requests).toHaveLength(0);
});

it('validates the enrollment', async () => {
  const program = await t.createProgram('asa-bad');
  for (const body of [{ url: 'not a url' }, { url: 'ftp://example.com/x' }, { url: endpointUrl, timeout_ms: 50 }, { url: endpointUrl, timeout_ms: 7000 }]) {
    expect((await t.call('PUT', '/v1/auth_stream', { apiKey: program.apiKey, body })).status).toBe(400);
  }
});
