import { type CardActivity, cardActivityAfter, NO_CARD_ACTIVITY } from '../cards/card-activity';
import { posFactsOf } from '../cards/authorization-pos';
import { type Card, type CardEvent, type AuthorizationFacts, evolveCard } from '../cards/card-state';
import type { ExistingAuthRule, AuthRuleVersion } from './auth-rule';
import { type AuthRuleDecision, definitionOf, evaluateAuthRules, type RuleToRun } from './auth-rule-evaluation';
import { appliesTo, type AuthRuleScope } from './auth-rule-scope';
import { ruleCardOf, type RuleAuthorization } from './rule-authorization';

/**
 * A backtest: the program's real authorization history replayed through a rule's versions. Each
 * version is evaluated as if it were the only rule, on every authorization ever decided in the window
 * on a card the rule applies to, with the card (its state, PIN, age) and its activity (the velocity
 * counters, first transaction, new country...) exactly as they stood just before that authorization:
 * both are rebuilt by folding the card's own stream in order, as the authorization itself folded it.
 * The history is what really happened, whatever the version would have decided: Lithic's "would have
 * been approved if the rule was evaluated in shadow mode".
 */

export interface BacktestWindow {
  /** Inclusive, UTC. */
  readonly start: Date;
  /** Inclusive, UTC. */
  readonly end: Date;
}

export interface BacktestExample {
  readonly decision: AuthRuleDecision;
  readonly eventToken: string;
  readonly transactionToken: string;
  readonly timestamp: string;
}

export interface BacktestStats {
  readonly version: number;
  readonly approved: number;
  readonly declined: number;
  readonly challenged: number;
  readonly examples: readonly BacktestExample[];
}

export interface BacktestResults {
  readonly currentVersion: BacktestStats | null;
  readonly draftVersion: BacktestStats | null;
}

/** Lithic shows a few example events; those a version refused are the ones worth reading. */
export const BACKTEST_EXAMPLES = 10;

/** The cards whose history a backtest of a rule with this scope must read: the listed ones of a card-level rule; null for every card of the program. */
export function cardsToReplay(scope: AuthRuleScope): readonly string[] | null {
  return scope.level === 'CARD' ? scope.cardTokens : null;
}

/** One card's stream, oldest first, from its creation: the whole of it, since a window's first authorization reads the history before it. */
export type CardHistory = readonly CardEvent[];

interface Tally {
  readonly version: number;
  approved: number;
  declined: number;
  challenged: number;
  readonly decided: BacktestExample[];
}

/** `accountCreated`: the program's creation, so ACCOUNT_AGE reads at each authorization what it read then. */
export function replayBacktest(rule: ExistingAuthRule, histories: readonly CardHistory[], window: BacktestWindow, accountCreated: string): BacktestResults {
  const versions = [rule.current, rule.draft].map((version) => (version === null ? null : { run: onlyRule(rule, version), tally: emptyTally(version.version) }));
  const running = versions.filter((version) => version !== null);
  for (const history of histories) replayCard(history, rule, running, window, accountCreated);
  return { currentVersion: versions[0] && statsOf(versions[0].tally), draftVersion: versions[1] && statsOf(versions[1].tally) };
}

/** One card's stream in order: each authorization in the window is judged on the card as the events before it left it. */
function replayCard(history: CardHistory, rule: ExistingAuthRule, running: readonly { run: RuleToRun; tally: Tally }[], window: BacktestWindow, accountCreated: string): void {
  const start = window.start.getTime();
  const end = window.end.getTime();
  let card: Card = { status: 'absent' };
  let activity: CardActivity = NO_CARD_ACTIVITY;
  for (const event of history) {
    if (isAuthorization(event) && card.status === 'issued') {
      const at = Date.parse(event.data.at);
      if (at >= start && at <= end && appliesTo(rule.scope, { cardToken: card.cardToken, accountToken: card.programToken })) {
        const situation = { authorization: ruleAuthorizationOf(event.data), card: ruleCardOf(card, accountCreated, activity), now: new Date(at) };
        for (const { run, tally } of running) count(tally, evaluateAuthRules([run], situation, new Map())[0].decision, event.data);
      }
    }
    card = evolveCard(card, event);
    activity = cardActivityAfter(activity, event);
  }
}

/** Evaluated ACTIVE: the version's own decision, as if it were enforced and alone. */
function onlyRule(rule: ExistingAuthRule, version: AuthRuleVersion): RuleToRun {
  return { authRuleToken: rule.authRuleToken, name: rule.name, version: version.version, mode: 'ACTIVE', definition: definitionOf(rule.ruleType, version.parameters) };
}

function isAuthorization(event: CardEvent): event is Extract<CardEvent, { type: 'CardAuthorizationApproved' | 'CardAuthorizationDeclined' }> {
  return event.type === 'CardAuthorizationApproved' || event.type === 'CardAuthorizationDeclined';
}

/**
 * The authorization as the rules saw it, from what its event recorded: the point of sale's facts as
 * recorded (authorization-pos.ts). The event keeps no presented PIN, so a PIN reads as not entered.
 */
export function ruleAuthorizationOf(facts: AuthorizationFacts): RuleAuthorization {
  const { panEntryMode, walletType, cashAmount } = posFactsOf(facts.pos);
  return { amount: facts.amount, cashAmount, merchant: facts.merchant, merchantCurrency: facts.merchantCurrency, panEntryMode, pinEntered: false, walletType };
}

function emptyTally(version: number): Tally {
  return { version, approved: 0, declined: 0, challenged: 0, decided: [] };
}

function count(tally: Tally, decision: AuthRuleDecision, facts: AuthorizationFacts): void {
  if (decision === 'APPROVED') tally.approved += 1;
  else if (decision === 'DECLINED') tally.declined += 1;
  else tally.challenged += 1;
  tally.decided.push({ decision, eventToken: facts.eventToken, transactionToken: facts.transactionToken, timestamp: facts.at });
}

/** The examples: the most recent authorizations the version refused, then the most recent it approved, up to BACKTEST_EXAMPLES. */
function statsOf({ version, approved, declined, challenged, decided }: Tally): BacktestStats {
  const newestFirst = [...decided].sort((a, b) => (a.timestamp === b.timestamp ? compare(a.eventToken, b.eventToken) : compare(b.timestamp, a.timestamp)));
  const refused = newestFirst.filter((example) => example.decision !== 'APPROVED');
  const examples = [...refused, ...newestFirst.filter((example) => example.decision === 'APPROVED')].slice(0, BACKTEST_EXAMPLES);
  return { version, approved, declined, challenged, examples };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
