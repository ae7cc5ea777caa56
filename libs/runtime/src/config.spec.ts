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
