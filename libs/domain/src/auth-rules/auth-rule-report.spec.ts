import { actionsOf, dailyReport, type AuthRuleEvaluation } from './auth-rule-report';

const evaluation = (overrides: Partial<AuthRuleEvaluation>): AuthRuleEvaluation => ({
  authRuleToken: 'rule',
  version: 1,
  mode: 'ACTIVE',
  decision: 'APPROVED',
  detailedResult: 'APPROVED',
  explanation: null,
  eventToken: 'event',
  transactionToken: 'transaction',
  evaluated: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

describe('auth rule results and report', () => {
  it('given an approval, a decline and a challenge, then the actions are none, a decline with its code, a challenge', () => {
    expect(actionsOf(evaluation({}))).toEqual([]);
    expect(actionsOf(evaluation({ decision: 'DECLINED', detailedResult: 'CARD_SPEND_LIMIT_EXCEEDED', explanation: 'velocity limit exceeded' }))).toEqual([
      { type: 'DECLINE', code: 'CARD_SPEND_LIMIT_EXCEEDED', explanation: 'velocity limit exceeded' },
    ]);
    expect(actionsOf(evaluation({ decision: 'CHALLENGED', detailedResult: 'CARDHOLDER_CHALLENGED' }))).toEqual([{ type: 'CHALLENGE' }]);
  });

  it('given evaluations over two days, when reported over three, then every day is listed and each version-mode is counted on its day', () => {
    const report = dailyReport(
      [
        evaluation({ eventToken: 'b', evaluated: '2026-11-20T12:00:00.000Z', decision: 'DECLINED', detailedResult: 'AUTH_RULE' }),
        evaluation({ eventToken: 'a', evaluated: '2026-11-20T11:00:00.000Z' }),
        evaluation({ eventToken: 'c', evaluated: '2026-11-20T11:00:00.000Z', version: 2, mode: 'SHADOW', decision: 'DECLINED', detailedResult: 'AUTH_RULE' }),
        evaluation({ eventToken: 'd', evaluated: '2026-11-22T23:59:59.999Z' }),
        evaluation({ eventToken: 'outside', evaluated: '2026-11-23T00:00:00.000Z' }),
      ],
      '2026-11-20',
      '2026-11-22',
    );
    expect(report.map((day) => day.date)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    expect(report[0].versions.map(({ version, state, actionCounts, examples }) => ({ version, state, actionCounts, examples: examples.map((example) => example.eventToken) }))).toEqual([
      { version: 1, state: 'ACTIVE', actionCounts: { NO_ACTION: 1, DECLINE: 1 }, examples: ['a', 'b'] },
      { version: 2, state: 'SHADOW', actionCounts: { DECLINE: 1 }, examples: ['c'] },
    ]);
    expect(report[1].versions).toEqual([]);
    expect(report[2].versions.map((stats) => stats.actionCounts)).toEqual([{ NO_ACTION: 1 }]);
  });

  it('given more evaluations than examples, then the first five of the day are the examples', () => {
    const many = Array.from({ length: 7 }, (_, index) => evaluation({ eventToken: `e${index}`, evaluated: `2026-11-20T1${index}:00:00.000Z` }));
    const [day] = dailyReport(many, '2026-11-20', '2026-11-20');
    expect(day.versions[0].actionCounts).toEqual({ NO_ACTION: 7 });
    expect(day.versions[0].examples.map((example) => example.eventToken)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4']);
  });
});
