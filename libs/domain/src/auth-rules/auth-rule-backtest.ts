import { assertNever, Decider, DecisionContext } from '../core/decider';
import { ownedRule, type AuthRule, type ExistingAuthRule } from './auth-rule';
import { replayBacktest, type BacktestResults, type CardHistory } from './auth-rule-backtest-replay';
import { AuthRuleBacktestNotFound, AuthRuleBacktestNotSupported, AuthRuleBacktestWindowInvalid } from './auth-rule-errors';

/**
 * A backtest of an Auth Rule as a decider on a stream of its own, `auth-rule-backtest-<token>`:
 * requested with a window, then reported with what each of the rule's versions would have decided
 * (auth-rule-backtest-replay.ts). Not on the rule's stream: every authorization checks that stream's
 * version in its write, so a backtest written there would refuse the authorizations in flight and
 * drop the rule's kept fold; a stream per backtest is also all a retrieve reads.
 */

export const AUTH_RULE_BACKTEST_STREAM_CATEGORY = 'auth-rule-backtest';
export const authRuleBacktestStreamId = (backtestToken: string): string => `${AUTH_RULE_BACKTEST_STREAM_CATEGORY}-${backtestToken}`;
export const isAuthRuleBacktestStream = (streamId: string): boolean => streamId.startsWith(`${AUTH_RULE_BACKTEST_STREAM_CATEGORY}-`);

/** Lithic gives no default window; the last 30 days up to now answer "what would it have done to last month's traffic". */
export const DEFAULT_BACKTEST_DAYS = 30;
const DAY_MS = 86_400_000;

// ---------------------------------------------------------------- commands

export interface RequestAuthRuleBacktest {
  readonly type: 'RequestAuthRuleBacktest';
  readonly backtestToken: string;
  readonly authRuleToken: string;
  readonly programToken: string;
  /** As the API received them; absent for the defaults. */
  readonly start?: string;
  readonly end?: string;
}

/** The replay's input: every card stream of the program (the rule, as it is now, comes in the context). */
export interface ReportAuthRuleBacktest {
  readonly type: 'ReportAuthRuleBacktest';
  readonly histories: readonly CardHistory[];
  /** When the account (the program) was created: what ACCOUNT_AGE reads, as at an authorization. */
  readonly accountCreated: string;
}

export type AuthRuleBacktestCommand = RequestAuthRuleBacktest | ReportAuthRuleBacktest;

// ---------------------------------------------------------------- events

export interface AuthRuleBacktestRequested {
  readonly type: 'AuthRuleBacktestRequested';
  readonly data: { readonly backtestToken: string; readonly authRuleToken: string; readonly programToken: string; readonly start: string; readonly end: string; readonly at: string };
}

/** Repeats the window, so that the report alone is what Lithic's webhook carries. */
export interface AuthRuleBacktestReported {
  readonly type: 'AuthRuleBacktestReported';
  readonly data: {
    readonly backtestToken: string;
    readonly authRuleToken: string;
    readonly programToken: string;
    readonly start: string;
    readonly end: string;
    readonly results: BacktestResults;
    readonly at: string;
  };
}

export type AuthRuleBacktestEvent = AuthRuleBacktestRequested | AuthRuleBacktestReported;

// ---------------------------------------------------------------- state

export interface RequestedBacktest {
  readonly status: 'requested';
  readonly backtestToken: string;
  readonly authRuleToken: string;
  readonly programToken: string;
  readonly start: string;
  readonly end: string;
  /** null until reported. */
  readonly results: BacktestResults | null;
}

export type AuthRuleBacktest = { readonly status: 'absent' } | RequestedBacktest;

/** The backtest as its report alone tells it: what a webhook body is rendered from. */
export function reportedBacktest({ data }: AuthRuleBacktestReported): RequestedBacktest {
  const { backtestToken, authRuleToken, programToken, start, end, results } = data;
  return { status: 'requested', backtestToken, authRuleToken, programToken, start, end, results };
}

export function evolveAuthRuleBacktest(backtest: AuthRuleBacktest, event: AuthRuleBacktestEvent): AuthRuleBacktest {
  switch (event.type) {
    case 'AuthRuleBacktestRequested': {
      const { backtestToken, authRuleToken, programToken, start, end } = event.data;
      return { status: 'requested', backtestToken, authRuleToken, programToken, start, end, results: null };
    }
    case 'AuthRuleBacktestReported':
      return backtest.status === 'requested' ? { ...backtest, results: event.data.results } : backtest;
    default:
      return assertNever(event);
  }
}

// ---------------------------------------------------------------- decide

function decideRequest(command: RequestAuthRuleBacktest, backtest: AuthRuleBacktest, rule: AuthRule, now: Date): AuthRuleBacktestEvent[] {
  if (backtest.status !== 'absent') return [];
  const existing = ownedRule(rule, command.authRuleToken, command.programToken);
  refuseProgramWideCounts(existing);
  const end = command.end === undefined ? now : timeOf(command.end, 'end');
  const start = command.start === undefined ? new Date(end.getTime() - DEFAULT_BACKTEST_DAYS * DAY_MS) : timeOf(command.start, 'start');
  if (start.getTime() >= end.getTime()) throw new AuthRuleBacktestWindowInvalid(`start (${start.toISOString()}) must be before end (${end.toISOString()})`, 'start');
  const data = { backtestToken: command.backtestToken, authRuleToken: existing.authRuleToken, programToken: existing.programToken, start: start.toISOString(), end: end.toISOString(), at: now.toISOString() };
  return [{ type: 'AuthRuleBacktestRequested', data }];
}

/**
 * The replay folds each card's own history; an ACCOUNT velocity limit counts every card of the
 * program at each authorization, which that fold cannot answer. Refused rather than reported wrong
 * (Lithic, too, backtests velocity limits only where it has the counts).
 */
function refuseProgramWideCounts(rule: ExistingAuthRule): void {
  for (const version of [rule.current, rule.draft]) {
    if (version && rule.ruleType === 'VELOCITY_LIMIT' && (version.parameters as { scope?: string }).scope === 'ACCOUNT') {
      throw new AuthRuleBacktestNotSupported(`version ${version.version} is an ACCOUNT velocity limit: its count spans every card of the program, which a backtest does not replay`);
    }
  }
}

function decideReport(command: ReportAuthRuleBacktest, backtest: AuthRuleBacktest, current: AuthRule, now: Date): AuthRuleBacktestEvent[] {
  if (backtest.status !== 'requested' || backtest.results !== null) return [];
  const rule = ownedRule(current, backtest.authRuleToken, backtest.programToken);
  const results = replayBacktest(rule, command.histories, { start: new Date(backtest.start), end: new Date(backtest.end) }, command.accountCreated);
  const { backtestToken, authRuleToken, programToken, start, end } = backtest;
  return [{ type: 'AuthRuleBacktestReported', data: { backtestToken, authRuleToken, programToken, start, end, results, at: now.toISOString() } }];
}

function timeOf(text: string, field: 'start' | 'end'): Date {
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new AuthRuleBacktestWindowInvalid(`${field} must be a date-time (ISO 8601); got ${text}`, field);
  return new Date(time);
}

/** A request needs the rule it tests (it must exist and be the program's); a report replays the history through it. */
export interface BacktestDecisionContext extends DecisionContext {
  readonly rule: AuthRule;
}

export function decideAuthRuleBacktest(command: AuthRuleBacktestCommand, backtest: AuthRuleBacktest, { now, rule }: BacktestDecisionContext): AuthRuleBacktestEvent[] {
  switch (command.type) {
    case 'RequestAuthRuleBacktest':
      return decideRequest(command, backtest, rule, now);
    case 'ReportAuthRuleBacktest':
      return decideReport(command, backtest, rule, now);
    default:
      return assertNever(command);
  }
}

export const authRuleBacktestDecider: Decider<AuthRuleBacktestCommand, AuthRuleBacktestEvent, AuthRuleBacktest, BacktestDecisionContext> = {
  initialState: () => ({ status: 'absent' }),
  decide: decideAuthRuleBacktest,
  evolve: evolveAuthRuleBacktest,
};

/** The program's backtest of this rule, or not found: another rule's or program's backtest is reported as missing. */
export function ownedBacktest(backtest: AuthRuleBacktest, backtestToken: string, authRuleToken: string, programToken: string): RequestedBacktest {
  if (backtest.status !== 'requested' || backtest.authRuleToken !== authRuleToken || backtest.programToken !== programToken) throw new AuthRuleBacktestNotFound(backtestToken);
  return backtest;
}
