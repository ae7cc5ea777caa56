import { loadConfig, parseDurations } from './config';

describe('webhook settings', () => {
  it('default to the Standard Webhooks schedule, a 1 s poll, a 15 s timeout and the webhook-dispatcher group', () => {
    expect(loadConfig({})).toMatchObject({
      webhookRetrySchedule: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      webhookPollMs: 1000,
      webhookTimeoutMs: 15_000,
      webhookKafkaGroupId: 'webhook-dispatcher',
    });
  });

  it('read a schedule of durations; a bare number is milliseconds', () => {
    expect(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0, 200ms,1s,2m,1h,50', WEBHOOK_POLL_MS: '20' })).toMatchObject({
      webhookRetrySchedule: [0, 200, 1000, 120_000, 3_600_000, 50],
      webhookPollMs: 20,
    });
  });

  it('refuse a schedule that is not one', () => {
    for (const bad of ['5 minutes', '1d', '-5s', '0,,5s']) expect(() => parseDurations('WEBHOOK_RETRY_SCHEDULE', bad)).toThrow(/WEBHOOK_RETRY_SCHEDULE/);
    expect(() => loadConfig({ WEBHOOK_POLL_MS: 'soon' })).toThrow(/WEBHOOK_POLL_MS/);
  });
});

describe('rate limits', () => {
  const limits = (env: NodeJS.ProcessEnv) => {
    const { rateLimitPerSecond, rateLimitPerMinute } = loadConfig(env);
    return [rateLimitPerSecond, rateLimitPerMinute];
  };

  it('are off by default in sandbox mode (the default mode), where test suites run', () => {
    expect(limits({})).toEqual([0, 0]);
    expect(limits({ SANDBOX: 'true' })).toEqual([0, 0]);
  });

  it('default to 100 a second and 3000 a minute outside sandbox mode', () => {
    expect(limits({ SANDBOX: 'false' })).toEqual([100, 3000]);
  });

  it('are what was set explicitly, window by window, in either mode', () => {
    expect(limits({ RATE_LIMIT_PER_SECOND: '20' })).toEqual([20, 0]);
    expect(limits({ RATE_LIMIT_PER_MINUTE: '600' })).toEqual([0, 600]);
    expect(limits({ SANDBOX: 'false', RATE_LIMIT_PER_SECOND: '0' })).toEqual([0, 3000]);
    expect(limits({ SANDBOX: 'false', RATE_LIMIT_PER_SECOND: '7', RATE_LIMIT_PER_MINUTE: '70' })).toEqual([7, 70]);
  });
});

describe('egress allowlist', () => {
  it('opens loopback by default in sandbox mode, nothing outside it', () => {
    expect(loadConfig({})).toMatchObject({ egressAllowlist: ['127.0.0.0/8', '::1'], egressAllowlistIsSandboxDefault: true });
    expect(loadConfig({ SANDBOX: 'false' })).toMatchObject({ egressAllowlist: [], egressAllowlistIsSandboxDefault: false });
  });

  it('is what EGRESS_ALLOWLIST says, in either mode; none is nothing', () => {
    const configured = ' hooks.lan:8443, 10.0.0.0/8,[::1]:9000 ';
    expect(loadConfig({ EGRESS_ALLOWLIST: configured })).toMatchObject({ egressAllowlist: ['hooks.lan:8443', '10.0.0.0/8', '[::1]:9000'], egressAllowlistIsSandboxDefault: false });
    expect(loadConfig({ SANDBOX: 'false', EGRESS_ALLOWLIST: configured }).egressAllowlist).toEqual(['hooks.lan:8443', '10.0.0.0/8', '[::1]:9000']);
    expect(loadConfig({ EGRESS_ALLOWLIST: 'none' })).toMatchObject({ egressAllowlist: [], egressAllowlistIsSandboxDefault: false });
  });

  it('refuses an entry that is not a host, host:port, address or range', () => {
    for (const bad of ['http://hooks.lan', '10.0.0.0/40', 'hooks.lan:0', 'two words']) expect(() => loadConfig({ EGRESS_ALLOWLIST: bad })).toThrow(/EGRESS_ALLOWLIST/);
  });
});

describe('HTTP timeouts', () => {
  it('bound every connection by default and take each bound from the environment', () => {
    expect(loadConfig({}).httpTimeouts).toEqual({ headersMs: 10_000, requestMs: 30_000, idleMs: 120_000, keepAliveMs: 72_000 });
    const set = { HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '900', CONNECTION_TIMEOUT_MS: '4000', KEEP_ALIVE_TIMEOUT_MS: '3000' };
    expect(loadConfig(set).httpTimeouts).toEqual({ headersMs: 500, requestMs: 900, idleMs: 4000, keepAliveMs: 3000 });
  });

  it('refuses no bound at all, and headers allowed longer than the whole request', () => {
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
    expect(() => loadConfig({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '1000' })).toThrow(/HEADERS_TIMEOUT_MS/);
  });
});
