import type { AuthRule, AuthRuleEvent } from './auth-rule';
import { authRuleDecider } from './auth-rule';
import { authRuleBacktestDecider, authRuleBacktestStreamId, type AuthRuleBacktest, type AuthRuleBacktestCommand, type AuthRuleBacktestEvent, ownedBacktest } from './auth-rule-backtest';
import { AuthRuleBacktestNotFound, AuthRuleBacktestNotSupported, AuthRuleBacktestWindowInvalid, AuthRuleNotFound } from './auth-rule-errors';
import { cardCreated } from '../../test/card-fixtures';
import { coffeeShop, now, otherProgramToken, programToken } from '../../test/fixtures';
import { approvedAt } from '../../test/auth-rule-fixtures';

const authRuleToken = '5b0d1c6e-2f4a-4c1e-9a7b-3c2d1e0f9a8b';
const backtestToken = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
/** The program's (the account's) creation, as the handler reads it from the program. */
const accountCreated = '2025-01-01T00:00:00.000Z';

const created: AuthRuleEvent = {
  type: 'AuthRuleCreated',
  data: {
    authRuleToken,
    programToken,
    name: null,
    ruleType: 'CONDITIONAL_ACTION',
    scope: { level: 'PROGRAM', excludedCardTokens: [], excludedAccountTokens: [] },
    parameters: { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['5812'] }] },
    created: '2026-01-01T00:00:00.000Z',
  } as Extract<AuthRuleEvent, { type: 'AuthRuleCreated' }>['data'],
};
const rule: AuthRule = [created].reduce(authRuleDecider.evolve, authRuleDecider.initialState());

function given(events: AuthRuleBacktestEvent[]) {
  const state: AuthRuleBacktest = events.reduce(authRuleBacktestDecider.evolve, authRuleBacktestDecider.initialState());
  return { when: (command: AuthRuleBacktestCommand, context = { now, rule }) => authRuleBacktestDecider.decide(command, state, context) };
}

const request = (window: { start?: string; end?: string } = {}): AuthRuleBacktestCommand => ({ type: 'RequestAuthRuleBacktest', backtestToken, authRuleToken, programToken, ...window });

describe('auth rule backtest', () => {
  it('lives on a stream of its own, not the rule\'s', () => {
    expect(authRuleBacktestStreamId(backtestToken)).toBe(`auth-rule-backtest-${backtestToken}`);
  });

  it('given no window, when requested, then it covers the 30 days up to now', () => {
    expect(given([]).when(request())).toEqual([
      { type: 'AuthRuleBacktestRequested', data: { backtestToken, authRuleToken, programToken, start: '2026-10-23T10:15:30.000Z', end: now.toISOString(), at: now.toISOString() } },
    ]);
  });

  it('given only a start, when requested, then the window ends now', () => {
    const [event] = given([]).when(request({ start: '2026-11-01T00:00:00Z' }));
    expect(event.data).toMatchObject({ start: '2026-11-01T00:00:00.000Z', end: now.toISOString() });
  });

  it('refuses a window that does not open before it closes', () => {
    expect(() => given([]).when(request({ start: '2026-11-02T00:00:00Z', end: '2026-11-01T00:00:00Z' }))).toThrow(AuthRuleBacktestWindowInvalid);
  });

  it("refuses a rule that is missing or another program's", () => {
    expect(() => given([]).when(request(), { now, rule: authRuleDecider.initialState() })).toThrow(AuthRuleNotFound);
    expect(() => given([]).when({ ...request(), programToken: otherProgramToken } as AuthRuleBacktestCommand)).toThrow(AuthRuleNotFound);
  });

  it('refuses to backtest an ACCOUNT velocity limit, whose count spans every card of the program', () => {
    const accountLimit = { ...(rule as Extract<AuthRule, { status: 'existing' }>), ruleType: 'VELOCITY_LIMIT' as const };
    const draft = { version: 2, parameters: { scope: 'ACCOUNT', period: { type: 'DAY' }, limit_count: 3 } as never, created: now.toISOString() };
    expect(() => given([]).when(request(), { now, rule: { ...accountLimit, draft, versions: [draft] } })).toThrow(AuthRuleBacktestNotSupported);
  });

  it('given a request, when reported, then the report holds the replay of the histories through each version', () => {
    const [requested] = given([]).when(request());
    const histories = [[cardCreated({ spendLimit: 0 }), approvedAt(new Date(now.getTime() - 60_000).toISOString(), coffeeShop)]];
    const [reported] = given([requested]).when({ type: 'ReportAuthRuleBacktest', histories, accountCreated });
    expect(reported).toMatchObject({ type: 'AuthRuleBacktestReported', data: { backtestToken, results: { currentVersion: null, draftVersion: { version: 1, approved: 0, declined: 1, challenged: 0 } } } });
  });

  it('given a report, when reported again, then nothing changes: a report is made once', () => {
    const [requested] = given([]).when(request());
    const [reported] = given([requested]).when({ type: 'ReportAuthRuleBacktest', histories: [], accountCreated });
    expect(given([requested, reported]).when({ type: 'ReportAuthRuleBacktest', histories: [], accountCreated })).toEqual([]);
  });

  it("shows a backtest only under its own rule and program", () => {
    const [requested] = given([]).when(request());
    const state = [requested].reduce(authRuleBacktestDecider.evolve, authRuleBacktestDecider.initialState());
    expect(ownedBacktest(state, backtestToken, authRuleToken, programToken).start).toBe('2026-10-23T10:15:30.000Z');
    expect(() => ownedBacktest(state, backtestToken, 'another-rule', programToken)).toThrow(AuthRuleBacktestNotFound);
    expect(() => ownedBacktest(state, backtestToken, authRuleToken, otherProgramToken)).toThrow(AuthRuleBacktestNotFound);
  });
});
