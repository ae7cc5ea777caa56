import { closedPort, eventually, LocalReceiver, scriptedResolver } from '@ledger/test-support';
import { startTestLedger, TestLedger } from './test-ledger';

/**
 * The egress policy over HTTP, against the running service and real local receivers: endpoint URLs
 * leading to internal addresses are refused when they are set (subscription create and patch, PUT
 * auth_stream) and again at every connection (a name that rebinds to loopback after it was checked),
 * operators open what they need with EGRESS_ALLOWLIST, the sandbox default opens loopback and says so,
 * and the delivery log shows a program only the class of a failure.
 */

const FAST_WEBHOOKS = { WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms,1500ms', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' };

/** The seven URLs the defect report found accepted, and more of each forbidden class in other spellings. */
function internalUrls(receiver: LocalReceiver): string[] {
  return [
    'http://127.0.0.1:5432/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]:5432/',
    'http://10.0.0.1/',
    'http://0x7f000001/',
    'http://metadata.google.internal/',
    'http://user:pass@127.0.0.1:6379/',
    receiver.url('/real-receiver'),
    receiver.url('/real-receiver', 'localhost'),
    `http://2130706433:${receiver.port}/`,
    `http://127.1:${receiver.port}/`,
    `http://[::ffff:127.0.0.1]:${receiver.port}/`,
    `http://[::ffff:7f00:1]:${receiver.port}/`,
    'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'http://[fd00:ec2::254]/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://[fe80::1]/',
    'http://[fd12::1]/',
    'http://0.0.0.0:5432/',
    'http://224.0.0.1/',
    'http://metadata/computeMetadata/v1/',
  ];
}

const listOf = async (t: TestLedger, apiKey: string) => (await t.call('GET', '/v1/event_subscriptions', { apiKey })).body;

// ---------------------------------------------------------------- production: nothing internal

describe('outside sandbox mode with no allowlist', () => {
  let t: TestLedger;
  const receiver = new LocalReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await startTestLedger({ SANDBOX: 'false', ...FAST_WEBHOOKS });
  });
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });

  it('refuses every internal URL when a subscription is created, naming url, and records nothing', async () => {
    const program = await t.createProgram('create-internal');
    for (const url of internalUrls(receiver)) {
      const answer = await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url } });
      expect({ url, status: answer.status, field: /^url /.test(answer.body.message) }).toEqual({ url, status: 400, field: true });
    }
    expect((await listOf(t, program.apiKey)).total_entries).toBe(0);
    expect(receiver.requests).toEqual([]);
  });

  it('refuses every internal URL in a patch, and the subscription keeps its url', async () => {
    const program = await t.createProgram('patch-internal');
    const created = await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url: 'https://hooks.example.com/ledger' } });
    expect(created.status).toBe(200);
    for (const url of internalUrls(receiver)) {
      const answer = await t.call('PATCH', `/v1/event_subscriptions/${created.body.token}`, { apiKey: program.apiKey, body: { url } });
      expect({ url, status: answer.status, field: /^url /.test(answer.body.message) }).toEqual({ url, status: 400, field: true });
    }
    expect((await t.call('GET', `/v1/event_subscriptions/${created.body.token}`, { apiKey: program.apiKey })).body.url).toBe('https://hooks.example.com/ledger');
  });

  it('refuses every internal URL for the authorization stream', async () => {
    const program = await t.createProgram('asa-internal');
    for (const url of internalUrls(receiver)) {
      const answer = await t.call('PUT', '/v1/auth_stream', { apiKey: program.apiKey, body: { url } });
      expect({ url, status: answer.status, field: /^url /.test(answer.body.message) }).toEqual({ url, status: 400, field: true });
    }
    expect((await t.call('GET', '/v1/auth_stream', { apiKey: program.apiKey })).status).toBe(404);
  });

  it('says why in words that reveal nothing of the network; credentials have their own reason', async () => {
    const refused = await t.call('POST', '/v1/event_subscriptions', { body: { url: receiver.url('/x') } });
    expect(refused.body.message).toBe('url must lead to a public address: this one, or an address its host resolves to, is internal');
    const credentials = await t.call('PUT', '/v1/auth_stream', { body: { url: 'https://user:pass@hooks.example.com/asa' } });
    expect(credentials).toMatchObject({ status: 400, body: { message: 'url must not carry credentials (user:password@)' } });
  });
});

// ---------------------------------------------------------------- production: what the operator opens

describe.each([
  ['an address with its port', (port: number) => `127.0.0.1:${port}`, true],
  ['a CIDR range', () => '127.0.0.0/8', false],
])('outside sandbox mode, EGRESS_ALLOWLIST naming %s', (_what, allowlist, portOnly) => {
  let t: TestLedger;
  const receiver = new LocalReceiver();
  const other = new LocalReceiver();

  beforeAll(async () => {
    await receiver.start();
    await other.start();
    t = await startTestLedger({ SANDBOX: 'false', EGRESS_ALLOWLIST: allowlist(receiver.port), ...FAST_WEBHOOKS });
  });
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
    await other.stop();
  });

  it('accepts the receiver and delivers to it; the authorization stream too', async () => {
    const program = await t.createProgram('allowed');
    const created = await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url: receiver.url('/allowed'), event_types: ['card.created'] } });
    expect(created.status).toBe(200);
    // Outside sandbox mode the simulation endpoints are gone; a new card makes a card.created webhook.
    expect((await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'SINGLE_USE' } })).status).toBe(200);
    await eventually('the delivery', async () => receiver.requestsTo('/allowed').length > 0);
    const message = await eventually('the delivered message', async () => {
      const [first] = (await t.call('GET', `/v1/event_subscriptions/${created.body.token}/messages`, { apiKey: program.apiKey })).body.data;
      return first?.status === 'delivered' && first;
    });
    expect(message).toMatchObject({ attempts: 1, last_response_status: 200 });
    expect((await t.call('PUT', '/v1/auth_stream', { apiKey: program.apiKey, body: { url: receiver.url('/asa') } })).status).toBe(200);
  });

  it(portOnly ? 'still refuses another port of the same address, and other internal addresses' : 'still refuses other internal addresses', async () => {
    const program = await t.createProgram('not-allowed');
    const urls = ['http://10.0.0.1/', 'http://169.254.169.254/', 'http://[::1]:5432/', ...(portOnly ? [other.url('/other')] : [])];
    for (const url of urls) {
      const answer = await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url } });
      expect({ url, status: answer.status }).toEqual({ url, status: 400 });
    }
    if (!portOnly) expect((await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url: other.url('/other') } })).status).toBe(200);
  });
});

// ---------------------------------------------------------------- sandbox: loopback, said at start-up; the log shows classes only

describe('the sandbox default', () => {
  let t: TestLedger;
  const receiver = new LocalReceiver((request) => (request.path === '/hang' ? null : { status: request.path === '/teapot' ? 418 : 200, body: {} }));
  const logLines: string[] = [];

  beforeAll(async () => {
    await receiver.start();
    t = await startTestLedger({ ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '300' }, { logDestination: { write: (line: string) => void logLines.push(line) } });
  });
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });

  it('says at start-up that outbound calls may reach loopback', () => {
    const messages = logLines.map((line) => JSON.parse(line)).filter((line) => line.context === 'Egress');
    expect(messages).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'outbound calls (webhooks, authorization stream) may reach public addresses and 127.0.0.0/8, ::1 (the sandbox default: receivers on this machine are reachable; EGRESS_ALLOWLIST changes it)',
      }),
    );
  });

  it('accepts a loopback receiver and delivers to it; still refuses other internal addresses', async () => {
    const program = await t.createProgram('sandbox');
    const created = await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url: receiver.url('/sandbox'), event_types: ['card.created'] } });
    expect(created.status).toBe(200);
    await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'SINGLE_USE' } });
    await eventually('the delivery', async () => receiver.requestsTo('/sandbox').length > 0);
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://metadata.google.internal/', 'http://[fe80::1]/']) {
      expect({ url, status: (await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url } })).status }).toEqual({ url, status: 400 });
    }
  });

  it('shows a program only the class of a failed attempt; the errno and address are in the server log', async () => {
    const program = await t.createProgram('classes');
    const closed = await closedPort();
    const urls = { refused: `http://127.0.0.1:${closed}/down`, hang: receiver.url('/hang'), teapot: receiver.url('/teapot') };
    const tokens: Record<string, string> = {};
    for (const [name, url] of Object.entries(urls)) {
      tokens[name] = (await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url, event_types: ['card.created'] } })).body.token;
    }
    await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'SINGLE_USE' } });

    const attemptsOf = async (name: string) => {
      const log = await eventually(`attempts of ${name}`, async () => {
        const body = (await t.call('GET', `/v1/event_subscriptions/${tokens[name]}/attempts`, { apiKey: program.apiKey })).body;
        return body.total_entries >= 2 && body;
      });
      const [message] = (await t.call('GET', `/v1/event_subscriptions/${tokens[name]}/messages`, { apiKey: program.apiKey })).body.data;
      const perMessage = (await t.call('GET', `/v1/event_subscriptions/${tokens[name]}/messages/${message.token}/attempts`, { apiKey: program.apiKey })).body;
      return [...log.data, ...perMessage.data];
    };
    const expected = { refused: [null, 'connection_failed'], hang: [null, 'timeout'], teapot: [418, 'http_status'] } as const;
    for (const [name, [status, error]] of Object.entries(expected)) {
      const attempts = await attemptsOf(name);
      for (const attempt of attempts) {
        expect({ name, status: attempt.response_status, error: attempt.error }).toEqual({ name, status, error });
        // Nothing but the caller's own url says where: no errno, no address or port of ours.
        const { url: _url, ...rest } = attempt;
        expect(JSON.stringify(rest)).not.toMatch(/ECONN|EHOST|ENOTFOUND|127\.0\.0\.1|timed out/);
        expect(JSON.stringify(rest)).not.toContain(String(closed));
      }
    }
    const logged = logLines.join('\n');
    expect(logged).toContain('ECONNREFUSED');
    expect(logged).toContain(`127.0.0.1:${closed}`);
  });
});

// ---------------------------------------------------------------- DNS rebinding: checked again at every connection

describe('a name that resolves to a public address when set and to loopback when called', () => {
  let t: TestLedger;
  const receiver = new LocalReceiver();
  const resolver = scriptedResolver({
    'rebind.test': [['93.184.216.34'], ['127.0.0.1']],
    'rebind-asa.test': [['93.184.216.34'], ['127.0.0.1']],
  });

  beforeAll(async () => {
    await receiver.start();
    // Sandbox mode for the simulation endpoints (an authorization asks the stream), with nothing internal open.
    t = await startTestLedger({ EGRESS_ALLOWLIST: 'none', ...FAST_WEBHOOKS }, { hostResolver: resolver });
  });
  afterAll(async () => {
    await t?.stop();
    await receiver.stop();
  });

  it('is accepted as a webhook url, and every delivery is refused at the connection: nothing reaches the receiver', async () => {
    const program = await t.createProgram('rebind');
    const created = await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url: receiver.url('/rebind', 'rebind.test'), event_types: ['card.created'] } });
    expect(created.status).toBe(200);
    await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'SINGLE_USE' } });

    const attempts = await eventually('two attempts', async () => {
      const body = (await t.call('GET', `/v1/event_subscriptions/${created.body.token}/attempts`, { apiKey: program.apiKey })).body;
      return body.total_entries >= 2 && body.data;
    });
    for (const attempt of attempts) expect(attempt).toMatchObject({ response_status: null, error: 'refused_by_egress_policy' });
    expect(receiver.requests).toEqual([]);
    expect(resolver.calls.filter((host) => host === 'rebind.test').length).toBeGreaterThanOrEqual(3);
  });

  it('is accepted as the authorization stream, and the authorization is declined without asking it', async () => {
    const program = await t.createProgram('rebind-asa');
    expect((await t.call('PUT', '/v1/auth_stream', { apiKey: program.apiKey, body: { url: receiver.url('/asa', 'rebind-asa.test'), timeout_ms: 1000 } })).status).toBe(200);
    const card = (await t.call('POST', '/v1/cards', { apiKey: program.apiKey, body: { type: 'DIGITAL_WALLET' } })).body;
    const answer = await t.call('POST', '/v1/simulate/authorize', { apiKey: program.apiKey, body: { pan: card.pan, amount: 100, descriptor: 'Rebound' } });
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain('(SWITCH_INOPERATIVE_ADVICE)');
    expect(receiver.requests).toEqual([]);
  });

  it('a name that resolves to loopback already when set is refused then', async () => {
    const program = await t.createProgram('rebind-late');
    const answer = await t.call('POST', '/v1/event_subscriptions', { apiKey: program.apiKey, body: { url: receiver.url('/late', 'rebind.test') } });
    expect(answer.status).toBe(400);
  });
});
