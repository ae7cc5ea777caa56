import { SECRET_EVENT_FIELDS, TOPICS } from '@ledger/contracts';
import type { RecordedEvent } from '@ledger/event-store';
import { topicFor, toIntegrationMessage } from './integration-messages';

/** Data with every secret field at the top, nested in an object and inside an array. */
function dataWithEverySecret(): Record<string, unknown> {
  const secrets = Object.fromEntries([...SECRET_EVENT_FIELDS].map((field) => [field, `secret-${field}`]));
  return { cardToken: 'c-1', memo: 'kept', ...secrets, nested: { lastFour: '4242', ...secrets }, list: [{ ...secrets, amount: 5 }, 'plain'] };
}

describe('the secret event fields', () => {
  it('never reach an integration message (Kafka and webhooks)', () => {
    const recorded = {
      streamId: 'card-c-1',
      streamVersion: 0,
      position: { commit: 1n, prepare: 1n },
      type: 'CardCreated',
      schemaVersion: 1,
      data: dataWithEverySecret(),
      metadata: { eventId: 'e-1', occurredAt: '2026-01-01T00:00:00.000Z', programToken: 'p-1' },
      recordedAt: '2026-01-01T00:00:00.000Z',
    } as unknown as RecordedEvent;
    const text = JSON.stringify(toIntegrationMessage(recorded, 'c-1'));
    for (const field of SECRET_EVENT_FIELDS) expect({ field, leaked: text.includes(`secret-${field}`) || text.includes(`"${field}"`) }).toEqual({ field, leaked: false });
  });
});

describe("a program's settings change", () => {
  const settingsChanged = (data: Record<string, unknown>) =>
    ({
      streamId: 'program-p-1',
      streamVersion: 4,
      position: { commit: 9n, prepare: 9n },
      type: 'ProgramSettingsChanged',
      schemaVersion: 1,
      data: { programToken: 'p-1', ...data },
      metadata: { eventId: 'e-9', occurredAt: '2026-01-01T00:00:00.000Z', programToken: 'p-1' },
      recordedAt: '2026-01-01T00:00:00.000Z',
    }) as unknown as RecordedEvent;

  it("goes to the programs topic with Lithic's account limits when it changed them", () => {
    const recorded = settingsChanged({ accountSpendLimits: { daily: 5000, lifetime: 0 } });
    expect(topicFor(recorded)).toBe(TOPICS.programs);
    expect(toIntegrationMessage(recorded, null).data).toEqual({ programToken: 'p-1', accountSpendLimits: { daily: 5000, lifetime: 0 } });
  });
});

describe('an auth rule backtest', () => {
  const onBacktestStream = (type: string) => ({ type, streamId: 'auth-rule-backtest-b-1', data: { backtestToken: 'b-1', programToken: 'p-1' } }) as unknown as RecordedEvent;

  it('goes to the programs topic when reported (the webhook auth_rules.backtest_report.created), and not when only requested', () => {
    expect(topicFor(onBacktestStream('AuthRuleBacktestReported'))).toBe(TOPICS.programs);
    expect(topicFor(onBacktestStream('AuthRuleBacktestRequested'))).toBeNull();
  });
});

describe('a 3DS authentication', () => {
  it('goes to the programs topic (the webhooks three_ds_authentication.created and .updated)', () => {
    const recorded = { type: 'ThreeDSAuthenticationCreated', streamId: 'three-ds-authentication-t-1', data: { threeDSAuthenticationToken: 't-1', programToken: 'p-1' } } as unknown as RecordedEvent;
    expect(topicFor(recorded)).toBe(TOPICS.programs);
    expect(topicFor({ ...recorded, type: 'ThreeDSChallengeCompleted' })).toBe(TOPICS.programs);
  });
});

describe("a token's and a dispute's events", () => {
  const on = (streamId: string, type: string) => ({ type, streamId, data: {} }) as unknown as RecordedEvent;

  it('go to the programs topic when they make a webhook (tokenization.result and .updated, dispute.updated), and stay in otherwise', () => {
    const token = 'tokenization-t-1';
    expect(['TokenizationDecided', 'TokenizationStatusChanged', 'TokenizationDigitalCardArtUpdated'].map((type) => topicFor(on(token, type)))).toEqual([TOPICS.programs, TOPICS.programs, TOPICS.programs]);
    expect(topicFor(on(token, 'TokenizationActivationCodeResent'))).toBeNull();
    const dispute = 'dispute-d-1';
    expect(['DisputeFiled', 'DisputeAmended', 'DisputeStatusChanged'].map((type) => topicFor(on(dispute, type)))).toEqual([TOPICS.programs, TOPICS.programs, TOPICS.programs]);
    // The evidence files are kept in the ledger only.
    expect(['DisputeEvidenceRequested', 'DisputeEvidenceUploaded', 'DisputeEvidenceDeleted'].map((type) => topicFor(on(dispute, type)))).toEqual([null, null, null]);
  });
});
