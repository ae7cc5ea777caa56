import type { AuthRuleDecision, AuthRuleDetailedResult, AuthRuleMode } from './auth-rule-evaluation';

/**
 * An Auth Rule's recorded results as Lithic shows them (`listResults`, `retrieveReport`): each result
 * an authorization recorded is one evaluation of one rule version, its actions what the rule asked
 * for (nothing when it approved). The ledger records every result, ACTIVE and SHADOW, on the
 * authorization's events (`ruleResults`), so these are read from what was recorded, never evaluated anew.
 */

export type AuthRuleAction = { readonly type: 'DECLINE'; readonly code: AuthRuleDetailedResult; readonly explanation?: string } | { readonly type: 'CHALLENGE'; readonly explanation?: string };

/** One recorded result of one rule version on one authorization. */
export interface AuthRuleEvaluation {
  readonly authRuleToken: string;
  readonly version: number;
  readonly mode: AuthRuleMode;
  readonly decision: AuthRuleDecision;
  readonly detailedResult: AuthRuleDetailedResult;
  readonly explanation: string | null;
  readonly eventToken: string;
  readonly transactionToken: string;
  /** When the authorization was decided (ISO 8601, UTC). */
  readonly evaluated: string;
}

/** What the rule asked for: a decline with its detailed result, a challenge, or nothing (it approved). */
export function actionsOf(evaluation: Pick<AuthRuleEvaluation, 'decision' | 'detailedResult' | 'explanation'>): AuthRuleAction[] {
  const explanation = evaluation.explanation === null ? {} : { explanation: evaluation.explanation };
  switch (evaluation.decision) {
    case 'APPROVED':
      return [];
    case 'DECLINED':
      return [{ type: 'DECLINE', code: evaluation.detailedResult, ...explanation }];
    case 'CHALLENGED':
      return [{ type: 'CHALLENGE', ...explanation }];
  }
}

/** Lithic's action count keys: the action's type, NO_ACTION when the rule asked for none. */
export type ReportActionKey = 'DECLINE' | 'CHALLENGE' | 'NO_ACTION';

export interface ReportExample {
  readonly actions: readonly AuthRuleAction[];
  readonly eventToken: string;
  readonly transactionToken: string;
  readonly timestamp: string;
}

export interface ReportVersionStats {
  readonly version: number;
  /** The mode the version ran in: SHADOW while it was the draft, ACTIVE once enforced. */
  readonly state: AuthRuleMode;
  readonly actionCounts: Readonly<Partial<Record<ReportActionKey, number>>>;
  readonly examples: readonly ReportExample[];
}

export interface ReportDay {
  /** YYYY-MM-DD, a UTC day. */
  readonly date: string;
  readonly versions: readonly ReportVersionStats[];
}

/** Lithic gives examples without saying how many: the day's first few are enough to look one up. */
export const REPORT_EXAMPLES_PER_VERSION = 5;

const DAY_MS = 86_400_000;

/**
 * Daily statistics from `begin` to `end` (UTC days, both included): every day of the range, each with
 * the versions evaluated that day (by version, ACTIVE before SHADOW), how often each action was asked
 * for, and the day's first evaluations as examples. Evaluations outside the range are ignored.
 */
export function dailyReport(evaluations: readonly AuthRuleEvaluation[], begin: string, end: string): ReportDay[] {
  const byDay = new Map<string, AuthRuleEvaluation[]>();
  for (const evaluation of [...evaluations].sort((a, b) => (a.evaluated < b.evaluated ? -1 : a.evaluated > b.evaluated ? 1 : 0))) {
    const day = evaluation.evaluated.slice(0, 10);
    byDay.set(day, [...(byDay.get(day) ?? []), evaluation]);
  }
  const days: ReportDay[] = [];
  for (let at = Date.parse(`${begin}T00:00:00.000Z`); at <= Date.parse(`${end}T00:00:00.000Z`); at += DAY_MS) {
    const date = new Date(at).toISOString().slice(0, 10);
    days.push({ date, versions: versionStats(byDay.get(date) ?? []) });
  }
  return days;
}

function versionStats(evaluations: readonly AuthRuleEvaluation[]): ReportVersionStats[] {
  const groups = new Map<string, AuthRuleEvaluation[]>();
  for (const evaluation of evaluations) {
    const key = `${evaluation.version}/${evaluation.mode}`;
    groups.set(key, [...(groups.get(key) ?? []), evaluation]);
  }
  return [...groups.values()]
    .map((group) => ({
      version: group[0].version,
      state: group[0].mode,
      actionCounts: countActions(group),
      examples: group.slice(0, REPORT_EXAMPLES_PER_VERSION).map((evaluation) => ({
        actions: actionsOf(evaluation),
        eventToken: evaluation.eventToken,
        transactionToken: evaluation.transactionToken,
        timestamp: evaluation.evaluated,
      })),
    }))
    .sort((a, b) => a.version - b.version || (a.state === b.state ? 0 : a.state === 'ACTIVE' ? -1 : 1));
}

function countActions(evaluations: readonly AuthRuleEvaluation[]): Partial<Record<ReportActionKey, number>> {
  const counts: Partial<Record<ReportActionKey, number>> = {};
  for (const evaluation of evaluations) {
    const actions = actionsOf(evaluation);
    const keys: ReportActionKey[] = actions.length === 0 ? ['NO_ACTION'] : actions.map((action) => action.type);
    for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
