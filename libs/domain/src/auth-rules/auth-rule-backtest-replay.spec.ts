import { foldEvents } from '../core/decider';
import { cardDecider } from '../cards/card';
import { cardActivityAfter, NO_CARD_ACTIVITY, type CardActivity } from '../cards/card-activity';
import { decideAuthorization } from '../cards/card-authorization';
import { evolveCard, type Card, type CardEvent } from '../cards/card-state';
import type { Merchant } from '../transactions/transaction-values';
import type { ExistingAuthRule } from './auth-rule';
import { authRuleDefinition } from './auth-rule-definition';
import { replayBacktest, type CardHistory } from './auth-rule-backtest-replay';
import type { AuthRuleDefinition } from './auth-rule-parameters';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { coffeeShop, programToken } from '../../test/fixtures';
import { approvedAt, declinedAt, HOUR, MINUTE } from '../../test/auth-rule-fixtures';

/**
 * The backtest replay. Given/when/then over small histories, then the property the issue asks for: a
 * history of 10,000 authorizations decided one by one by the domain's own authorization with the rule
 * in shadow mode (so each event records what the rule said at that moment), whose backtest reports
 * exactly the decisions the events recorded, authorization by authorization.
 */

const casino: Merchant = { acceptorId: '400', city: 'LAS VEGAS', country: 'USA', descriptor: 'LUCKY CASINO', mcc: '7995', state: 'NV' };
const paris: Merchant = { acceptorId: '300', city: 'PARIS', country: 'FRA', descriptor: 'CAFE', mcc: '5812', state: '' };
const CARD_A = '11111111-1111-4111-8111-111111111111';
const CARD_B = '22222222-2222-4222-8222-222222222222';
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();
/** The program's (the account's) creation, a day before the first authorization. */
const ACCOUNT_CREATED = at(-24 * HOUR);

const blockCasinos = authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] }] });
const blockNewCountries = authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute: 'IS_NEW_COUNTRY', operation: 'IS_EQUAL_TO', value: 'TRUE', parameters: { scope: 'CARD' } }] });
const twoAnHour = authRuleDefinition('VELOCITY_LIMIT', { scope: 'CARD', period: { type: 'CUSTOM', duration: 3600 }, limit_count: 2 });

function rule(current: AuthRuleDefinition | null, draft: AuthRuleDefinition | null, scope: ExistingAuthRule['scope'] = { level: 'PROGRAM', excludedCardTokens: [], excludedAccountTokens: [] }): ExistingAuthRule {
  const type = (draft ?? current)!.type;
  const version = (n: number, definition: AuthRuleDefinition | null) => (definition === null ? null : { version: n, parameters: definition.parameters, created: at(0) });
  const versions = [version(1, current), version(2, draft)].filter((one) => one !== null);
  return { status: 'existing', authRuleToken: 'rule-1', programToken, name: null, ruleType: type, scope, state: 'ACTIVE', current: version(1, current), draft: version(2, draft), versions, created: at(0) };
}

function history(cardToken: string, ...events: CardEvent[]): CardHistory {
  return [cardCreated({ cardToken, spendLimit: 0 }), ...events.map((event) => ({ ...event, data: { ...event.data, cardToken } }) as CardEvent)];
}

const always = { start: new Date(T0 - 365 * 24 * HOUR), end: new Date(T0 + 365 * 24 * HOUR) };

describe('replayBacktest', () => {
  it('given casino and coffee authorizations, when a casino block is backtested as the draft, then it declines exactly the casino ones and has no current version', () => {
    const histories = [history(CARD_A, approvedAt(at(0), casino), approvedAt(at(MINUTE), coffeeShop)), history(CARD_B, declinedAt(at(2 * MINUTE), casino))];
    const results = replayBacktest(rule(null, blockCasinos), histories, always, ACCOUNT_CREATED);
    expect(results.currentVersion).toBeNull();
    expect(results.draftVersion).toMatchObject({ version: 2, approved: 1, declined: 2, challenged: 0 });
    expect(results.draftVersion?.examples.map((example) => example.decision)).toEqual(['DECLINED', 'DECLINED', 'APPROVED']);
    expect(results.draftVersion?.examples[0].timestamp).toBe(at(2 * MINUTE));
  });

  it('given a current version and a draft, then each is reported on its own, as if it were the only rule', () => {
    const histories = [history(CARD_A, approvedAt(at(0), casino), approvedAt(at(MINUTE), paris))];
    const results = replayBacktest(rule(blockCasinos, blockNewCountries), histories, always, ACCOUNT_CREATED);
    expect(results.currentVersion).toMatchObject({ version: 1, approved: 1, declined: 1 });
    // The first authorization is in a new country too: the card had none before it.
    expect(results.draftVersion).toMatchObject({ version: 2, approved: 0, declined: 2 });
  });

  it('reads the card activity as it stood before each authorization: a velocity limit counts only the approvals before it', () => {
    const histories = [history(CARD_A, approvedAt(at(0)), approvedAt(at(MINUTE)), approvedAt(at(2 * MINUTE)), approvedAt(at(2 * HOUR)))];
    const results = replayBacktest(rule(null, twoAnHour), histories, always, ACCOUNT_CREATED);
    expect(results.draftVersion).toMatchObject({ approved: 3, declined: 1 });
    expect(results.draftVersion?.examples[0].timestamp).toBe(at(2 * MINUTE));
  });

  it('counts only the authorizations in the window, yet reads the history before it', () => {
    const histories = [history(CARD_A, approvedAt(at(0)), approvedAt(at(MINUTE)), approvedAt(at(2 * MINUTE)))];
    const results = replayBacktest(rule(null, twoAnHour), histories, { start: new Date(T0 + 2 * MINUTE), end: new Date(T0 + 2 * MINUTE) }, ACCOUNT_CREATED);
    expect(results.draftVersion).toMatchObject({ approved: 0, declined: 1 });
  });

  it("leaves out the cards the rule's scope does not cover", () => {
    const histories = [history(CARD_A, approvedAt(at(0), casino)), history(CARD_B, approvedAt(at(0), casino))];
    const results = replayBacktest(rule(null, blockCasinos, { level: 'CARD', cardTokens: [CARD_B] }), histories, always, ACCOUNT_CREATED);
    expect(results.draftVersion).toMatchObject({ approved: 0, declined: 1 });
  });

  it('reads the card state as it stood: a CARD_STATE rule sees the pause before the authorization', () => {
    const blockPaused = authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute: 'CARD_STATE', operation: 'IS_EQUAL_TO', value: 'PAUSED' }] });
    const histories = [history(CARD_A, approvedAt(at(0)), { type: 'CardPaused', data: { cardToken: CARD_A } }, declinedAt(at(MINUTE)), { type: 'CardResumed', data: { cardToken: CARD_A } }, approvedAt(at(2 * MINUTE)))];
    expect(replayBacktest(rule(null, blockPaused), histories, always, ACCOUNT_CREATED).draftVersion).toMatchObject({ approved: 2, declined: 1 });
  });
});

describe('a backtest over 10,000 authorizations decided one by one with the rule in shadow', () => {
  /** A small deterministic generator: the history is the same on every run, so a failure can be read again. */
  function generator(seed: number): () => number {
    let state = seed;
    return () => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
  }

  const DAY_MS = 24 * HOUR;
  const MERCHANTS: readonly Merchant[] = [coffeeShop, casino, paris, { acceptorId: '200', city: 'BOSTON', country: 'USA', descriptor: 'BAKERY', mcc: '5462', state: 'MA' }];
  const CARDS = Array.from({ length: 25 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

  /** The history as the live service would have written it: each authorization decided by decideAuthorization, with the rule's draft run in SHADOW. */
  function liveHistory(tested: ExistingAuthRule, size: number): CardHistory[] {
    const random = generator(26);
    const streams = new Map<string, { events: CardEvent[]; card: Card; activity: CardActivity }>();
    for (const cardToken of CARDS) {
      // A per-transaction limit declines some authorizations for a reason of the card's own.
      const created = cardCreated({ cardToken, spendLimit: 900, created: at(-DAY_MS) });
      streams.set(cardToken, { events: [created], card: foldEvents(cardDecider, [created]), activity: NO_CARD_ACTIVITY });
    }
    let time = T0;
    for (let i = 0; i < size; i++) {
      time += Math.floor(random() * 10 * MINUTE);
      const cardToken = CARDS[Math.floor(random() * CARDS.length)];
      const stream = streams.get(cardToken)!;
      const merchant = MERCHANTS[Math.floor(random() * MERCHANTS.length)];
      const amount = 1 + Math.floor(random() * 1000);
      const transactionToken = `tx-${i}`;
      const facts = { cardToken, programToken, transactionToken, eventToken: `event-${i}`, amount, merchant, merchantAmount: amount, merchantCurrency: 'USD', authorizationCode: '000000' };
      const draft = tested.draft!;
      const rules = [{ authRuleToken: tested.authRuleToken, name: null, version: draft.version, mode: 'SHADOW' as const, definition: { type: tested.ruleType, parameters: draft.parameters } as AuthRuleDefinition }];
      const checks = passingChecks({ authRules: { rules, accountCreated: ACCOUNT_CREATED, activity: stream.activity } });
      for (const event of decideAuthorization({ type: 'AuthorizeSpend', facts, checks }, stream.card, new Date(time))) {
        stream.events.push(event);
        stream.card = evolveCard(stream.card, event);
        stream.activity = cardActivityAfter(stream.activity, event);
      }
    }
    return [...streams.values()].map((stream) => stream.events);
  }

  /** What the rule said at each authorization, as its event recorded it. */
  function recorded(histories: readonly CardHistory[]): Map<string, string> {
    const decisions = new Map<string, string>();
    for (const event of histories.flat()) {
      if (event.type === 'CardAuthorizationApproved' || event.type === 'CardAuthorizationDeclined') decisions.set(event.data.eventToken, event.data.ruleResults![0].decision);
    }
    return decisions;
  }

  const tallies = (decisions: Iterable<string>) => {
    const all = [...decisions];
    return { approved: all.filter((d) => d === 'APPROVED').length, declined: all.filter((d) => d === 'DECLINED').length, challenged: all.filter((d) => d === 'CHALLENGED').length };
  };

  it.each([
    ['a velocity limit', twoAnHour],
    ["a rule on the account's age (younger than 20 days)", authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute: 'ACCOUNT_AGE', operation: 'IS_LESS_THAN', value: 20 * 86_400 }] })],
    ['a rule on the card history (an MCC seen before, with an approval within the hour)', authRuleDefinition('CONDITIONAL_ACTION', { action: 'DECLINE', conditions: [{ attribute: 'CARD_TRANSACTION_COUNT_1H', operation: 'IS_GREATER_THAN_OR_EQUAL_TO', value: 1, parameters: { scope: 'CARD' } }, { attribute: 'IS_NEW_MCC', operation: 'IS_EQUAL_TO', value: 'FALSE', parameters: { scope: 'CARD' } }] })],
  ])('given %s, when it is backtested, then it reports the decisions each authorization recorded', (_name, definition) => {
    const tested = rule(null, definition);
    const histories = liveHistory(tested, 10_000);
    const decisions = recorded(histories);
    expect(decisions.size).toBe(10_000);

    const results = replayBacktest(tested, histories, always, ACCOUNT_CREATED);

    const expected = tallies(decisions.values());
    expect(expected.approved).toBeGreaterThan(0);
    expect(expected.declined).toBeGreaterThan(0);
    expect(results.draftVersion).toMatchObject({ version: 2, ...expected });
    for (const example of results.draftVersion!.examples) expect(example.decision).toBe(decisions.get(example.eventToken));
  });
});
