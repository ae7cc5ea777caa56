import { RequestAuthRuleBacktestCommand } from '@ledger/contracts';
import {
  AuthRuleBacktestNotSupported,
  AuthRuleBacktestWindowInvalid,
  AuthRuleNotFound,
  authRuleBacktestStreamId,
  authRuleStreamId,
  cardStreamId,
  ProgramNotFound,
  programStreamId,
  type AuthRuleEvent,
  type AuthRuleScope,
  type BacktestResults,
  type CardEvent,
  type CardHistory,
  type Merchant,
  type ProgramEvent,
} from '@ledger/domain';
import type { EventCodec, EventStore } from '@ledger/event-store';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programWithFundingSources } from '@ledger/runtime/test';
import { unusable } from '@ledger/test-support';
import { RequestAuthRuleBacktestHandler } from './auth-rule-backtest.handler';
import type { CardHistorySource } from './program-card-histories';

/**
 * ProgramCardHistories on the scenario's in-memory store. Which cards a program has is what the cards
 * read model holds, a projection of each card's CardCreated (a card is its program's for good), so it
 * is taken from those events; each history is then the card's stream decoded, as the real one reads
 * it, in token order, and never another program's card. `read` is every card whose stream was read.
 */
class InMemoryCardHistories implements CardHistorySource {
  readonly read: string[] = [];

  constructor(private readonly store: EventStore) {}

  async of(programToken: string, codec: EventCodec<unknown>, only: readonly string[] | null): Promise<CardHistory[]> {
    const created = (await this.store.readAll({ maxCount: 10_000 })).filter((event) => event.type === 'CardCreated').map((event) => codec.decode(event) as Extract<CardEvent, { type: 'CardCreated' }>);
    const tokens = created
      .filter(({ data }) => data.programToken === programToken && (only === null || only.includes(data.cardToken)))
      .map(({ data }) => data.cardToken)
      .sort();
    const histories: CardHistory[] = [];
    for (const token of tokens) {
      this.read.push(token);
      histories.push((await this.store.readStream(cardStreamId(token))).map((event) => codec.decode(event) as CardEvent));
    }
    return histories;
  }
}

const PROGRAM = 'prog_acme';
const OTHER_PROGRAM = 'prog_other';
const CARD_A = 'card_a';
const CARD_B = 'card_b';
const FOREIGN_CARD = 'card_theirs';
const RULE = 'rule_1';
const RULE_STREAM = authRuleStreamId(RULE);
const NOW = '2025-03-14T09:26:53.589Z';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ago = (ms: number): string => new Date(Date.parse(NOW) - ms).toISOString();
const origin = commandOrigin(PROGRAM);

const casino: Merchant = { acceptorId: 'acq_casino', city: 'LAS VEGAS', country: 'USA', descriptor: 'LUCKY CASINO', mcc: '7995', state: 'NV' };
const coffee: Merchant = { acceptorId: 'acq_coffee', city: 'BERLIN', country: 'DEU', descriptor: 'COFFEE', mcc: '5814', state: '' };

function authorization(cardToken: string, programToken: string, transactionToken: string, at: string, merchant: Merchant, declinedFor?: 'USER_TRANSACTION_LIMIT'): CardEvent {
  const facts = { cardToken, programToken, transactionToken, eventToken: `evt_${transactionToken}`, amount: 2500, merchant, merchantAmount: 2500, merchantCurrency: 'USD', authorizationCode: '123456', fundingToken: 'fund_default', at };
  return declinedFor ? { type: 'CardAuthorizationDeclined', data: { ...facts, reason: declinedFor } } : { type: 'CardAuthorizationApproved', data: facts };
}

const cardIssued = (cardToken: string, programToken: string) => cardCreated({ cardToken, programToken, created: ago(60 * DAY) });

/**
 * The program's two cards and another program's one. In the default window (the 30 days up to NOW):
 * a casino approval and a coffee approval on A, a casino decline on B; B's casino approval is older.
 */
const histories = {
  [cardStreamId(CARD_A)]: [cardIssued(CARD_A, PROGRAM), authorization(CARD_A, PROGRAM, 'tx_a1', ago(DAY), casino), authorization(CARD_A, PROGRAM, 'tx_a2', ago(2 * HOUR), coffee)],
  [cardStreamId(CARD_B)]: [
    cardIssued(CARD_B, PROGRAM),
    authorization(CARD_B, PROGRAM, 'tx_b0', ago(40 * DAY), casino),
    authorization(CARD_B, PROGRAM, 'tx_b1', ago(3 * DAY), casino, 'USER_TRANSACTION_LIMIT'),
  ],
  [cardStreamId(FOREIGN_CARD)]: [cardIssued(FOREIGN_CARD, OTHER_PROGRAM), authorization(FOREIGN_CARD, OTHER_PROGRAM, 'tx_f1', ago(HOUR), casino)],
};

const programs = {
  [programStreamId(PROGRAM)]: programWithFundingSources({ programToken: PROGRAM, created: ago(90 * DAY) }),
  [programStreamId(OTHER_PROGRAM)]: programWithFundingSources({ programToken: OTHER_PROGRAM, created: ago(90 * DAY) }),
};

const programWide: AuthRuleScope = { level: 'PROGRAM', excludedCardTokens: [], excludedAccountTokens: [] };
const blockCasinos = { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['7995'] }] };
const blockCoffee = { action: 'DECLINE', conditions: [{ attribute: 'MCC', operation: 'IS_ONE_OF', value: ['5814'] }] };

function ruleCreated(parameters: object, { scope = programWide, ruleType = 'CONDITIONAL_ACTION' }: { scope?: AuthRuleScope; ruleType?: 'CONDITIONAL_ACTION' | 'VELOCITY_LIMIT' } = {}): AuthRuleEvent {
  return { type: 'AuthRuleCreated', data: { authRuleToken: RULE, programToken: PROGRAM, name: null, ruleType, scope, parameters: parameters as never, created: ago(7 * DAY) } };
}
const promoted = (version: number): AuthRuleEvent => ({ type: 'AuthRulePromoted', data: { authRuleToken: RULE, version, at: ago(6 * DAY) } });
const drafted = (version: number, parameters: object): AuthRuleEvent => ({ type: 'AuthRuleDrafted', data: { authRuleToken: RULE, version, parameters: parameters as never, at: ago(5 * DAY) } });

const given = (...rule: AuthRuleEvent[]) => ({ ...programs, [RULE_STREAM]: rule, ...histories });
const request = (window: { start?: string; end?: string } = {}, from = origin, authRuleToken = RULE) => new RequestAuthRuleBacktestCommand(from, authRuleToken, window);

const example = (decision: 'APPROVED' | 'DECLINED', transactionToken: string, timestamp: string) => ({ decision, eventToken: `evt_${transactionToken}`, transactionToken, timestamp });

/** The casino block over the default window: A's casino approval and B's casino decline declined, A's coffee approved; the refused first, newest first. */
const casinoBlockInDefaultWindow = (version: number) => ({
  version,
  approved: 1,
  declined: 2,
  challenged: 0,
  examples: [example('DECLINED', 'tx_a1', ago(DAY)), example('DECLINED', 'tx_b1', ago(3 * DAY)), example('APPROVED', 'tx_a2', ago(2 * HOUR))],
});

const DEFAULT_START = '2025-02-12T09:26:53.589Z';

/** The backtest's stream after one request: the request and its report, the window repeated in the report. */
function requestedAndReported(backtestToken: string, { start, end, at }: { start: string; end: string; at: string }, results: BacktestResults) {
  const window = { backtestToken, authRuleToken: RULE, programToken: PROGRAM, start, end };
  return {
    [authRuleBacktestStreamId(backtestToken)]: [
      { type: 'AuthRuleBacktestRequested', data: { ...window, at } },
      { type: 'AuthRuleBacktestReported', data: { ...window, results, at } },
    ],
  };
}

describe('RequestAuthRuleBacktestHandler', () => {
  let cards: InMemoryCardHistories;
  const backtests = ledgerHandlerSpecification({
    handler: (env) => new RequestAuthRuleBacktestHandler(env, (cards = new InMemoryCardHistories(env.store))),
    now: new Date(NOW),
  });
  const BACKTEST = backtests.id(1);
  const defaultWindow = { start: DEFAULT_START, end: NOW, at: NOW };

  it("writes the request and its report on the backtest's own stream in one write, the draft replayed over the 30 days up to now, and answers the backtest's token", async () => {
    const { result, writes } = await backtests
      .given(given(ruleCreated(blockCasinos)))
      .when((handler) => handler.execute(request()))
      .then(requestedAndReported(BACKTEST, defaultWindow, { currentVersion: null, draftVersion: casinoBlockInDefaultWindow(1) }));

    expect(result).toEqual({ token: BACKTEST, position: expect.stringMatching(/^\d+\/\d+$/) });
    // The rule's stream is in that write only as a check of its version: it gets no event.
    expect(writes).toEqual([[authRuleBacktestStreamId(BACKTEST)]]);
  });

  it('reports the current version and the draft each on its own, as if it were the only rule', async () => {
    await backtests
      .given(given(ruleCreated(blockCasinos), promoted(1), drafted(2, blockCoffee)))
      .when((handler) => handler.execute(request()))
      .then(
        requestedAndReported(BACKTEST, defaultWindow, {
          currentVersion: casinoBlockInDefaultWindow(1),
          draftVersion: {
            version: 2,
            approved: 2,
            declined: 1,
            challenged: 0,
            examples: [example('DECLINED', 'tx_a2', ago(2 * HOUR)), example('APPROVED', 'tx_a1', ago(DAY)), example('APPROVED', 'tx_b1', ago(3 * DAY))],
          },
        }),
      );
  });

  it("never reads or counts another program's cards: its casino approval in the window is not declined in the report", async () => {
    await backtests
      .given(given(ruleCreated(blockCasinos)))
      .when((handler) => handler.execute(request()))
      .then(requestedAndReported(BACKTEST, defaultWindow, { currentVersion: null, draftVersion: casinoBlockInDefaultWindow(1) }));
    expect(cards.read).toEqual([CARD_A, CARD_B]);
  });

  it("reads only the cards a card-level rule names, and of those only the program's own", async () => {
    // Create and update refuse another program's card in a scope; given one all the same, it is not read.
    const onB = ruleCreated(blockCasinos, { scope: { level: 'CARD', cardTokens: [CARD_B, FOREIGN_CARD] } });
    await backtests
      .given(given(onB))
      .when((handler) => handler.execute(request()))
      .then(requestedAndReported(BACKTEST, defaultWindow, { currentVersion: null, draftVersion: { version: 1, approved: 0, declined: 1, challenged: 0, examples: [example('DECLINED', 'tx_b1', ago(3 * DAY))] } }));
    expect(cards.read).toEqual([CARD_B]);
  });

  it('takes the window given, in UTC, and counts only the authorizations inside it', async () => {
    const window = { start: '2025-03-12T00:00:00Z', end: '2025-03-14T08:00:00+00:00' };
    await backtests
      .given(given(ruleCreated(blockCasinos)))
      .when((handler) => handler.execute(request(window)))
      .then(
        requestedAndReported(
          BACKTEST,
          { start: '2025-03-12T00:00:00.000Z', end: '2025-03-14T08:00:00.000Z', at: NOW },
          { currentVersion: null, draftVersion: { version: 1, approved: 1, declined: 1, challenged: 0, examples: [example('DECLINED', 'tx_a1', ago(DAY)), example('APPROVED', 'tx_a2', ago(2 * HOUR))] } },
        ),
      );
  });

  it("ends a window given no end at the program's time, which a test clock moved an hour ahead of the wall clock", async () => {
    const anHourAhead: ProgramEvent = { type: 'ProgramClockAdvanced', data: { programToken: PROGRAM, offsetMs: HOUR, frozenTime: ago(-HOUR + DAY), advancedAt: ago(DAY) } };
    const programNow = '2025-03-14T10:26:53.589Z';
    await backtests
      .given({ ...given(ruleCreated(blockCasinos)), [programStreamId(PROGRAM)]: [...programs[programStreamId(PROGRAM)], anHourAhead] })
      .when((handler) => handler.execute(request({ start: DEFAULT_START })))
      .then(requestedAndReported(BACKTEST, { start: DEFAULT_START, end: programNow, at: programNow }, { currentVersion: null, draftVersion: casinoBlockInDefaultWindow(1) }));
  });

  it("backtests a CARD velocity limit, whose count each card's own stream holds", async () => {
    const oncePerDay = { scope: 'CARD', period: { type: 'CUSTOM', duration: 86_400 }, limit_count: 1 };
    // A's coffee comes 22 hours after its casino approval, the one the day allows; B's decline had no approval in the day before it.
    await backtests
      .given(given(ruleCreated(oncePerDay, { ruleType: 'VELOCITY_LIMIT' })))
      .when((handler) => handler.execute(request()))
      .then(
        requestedAndReported(BACKTEST, defaultWindow, {
          currentVersion: null,
          draftVersion: {
            version: 1,
            approved: 2,
            declined: 1,
            challenged: 0,
            examples: [example('DECLINED', 'tx_a2', ago(2 * HOUR)), example('APPROVED', 'tx_a1', ago(DAY)), example('APPROVED', 'tx_b1', ago(3 * DAY))],
          },
        }),
      );
  });
});

describe('RequestAuthRuleBacktestHandler, refusing before any card is read', () => {
  const refusals = ledgerHandlerSpecification({
    handler: (env) => new RequestAuthRuleBacktestHandler(env, unusable<CardHistorySource>('the backtest read card histories', 'a refused request replays nothing')),
    now: new Date(NOW),
  });

  it.each([
    { what: 'an end before the start', window: { start: '2025-03-10T00:00:00Z', end: '2025-03-01T00:00:00Z' }, field: 'start' },
    { what: 'a start equal to the end', window: { start: '2025-03-10T00:00:00Z', end: '2025-03-10T00:00:00Z' }, field: 'start' },
    { what: 'a start after now, with no end (which is now)', window: { start: '2025-03-15T00:00:00Z' }, field: 'start' },
    { what: 'a start that is not a date-time', window: { start: 'last month' }, field: 'start' },
    { what: 'an end that is not a date-time', window: { end: 'next tuesday' }, field: 'end' },
  ])('refuses $what, naming $field, and writes nothing', async ({ window, field }) => {
    await refusals
      .given(given(ruleCreated(blockCasinos)))
      .when((handler) => handler.execute(request(window)))
      .thenThrows(AuthRuleBacktestWindowInvalid, { field });
  });

  it('refuses a rule that does not exist, or was deleted, and writes nothing', async () => {
    await refusals.given(given(ruleCreated(blockCasinos))).when((handler) => handler.execute(request({}, origin, 'rule_none'))).thenThrows(AuthRuleNotFound, { authRuleToken: 'rule_none' });
    const deleted: AuthRuleEvent = { type: 'AuthRuleDeleted', data: { authRuleToken: RULE, at: ago(DAY) } };
    await refusals.given(given(ruleCreated(blockCasinos), deleted)).when((handler) => handler.execute(request())).thenThrows(AuthRuleNotFound, { authRuleToken: RULE });
  });

  it("answers another program's rule as one that does not exist, and writes nothing", async () => {
    await refusals
      .given(given(ruleCreated(blockCasinos)))
      .when((handler) => handler.execute(request({}, commandOrigin(OTHER_PROGRAM))))
      .thenThrows(AuthRuleNotFound, { authRuleToken: RULE });
  });

  it('refuses a program that does not exist', async () => {
    await refusals
      .given({ [RULE_STREAM]: [ruleCreated(blockCasinos)] })
      .when((handler) => handler.execute(request()))
      .thenThrows(ProgramNotFound);
  });

  it.each([
    { what: 'its draft', rule: [ruleCreated({ scope: 'ACCOUNT', period: { type: 'DAY' }, limit_count: 3 }, { ruleType: 'VELOCITY_LIMIT' })] },
    {
      what: 'its current version',
      rule: [ruleCreated({ scope: 'ACCOUNT', period: { type: 'DAY' }, limit_count: 3 }, { ruleType: 'VELOCITY_LIMIT' }), promoted(1)],
    },
  ])('refuses an ACCOUNT velocity limit in $what (auth_rule_backtest_not_supported): its count spans every card of the program', async ({ rule }) => {
    await refusals.given(given(...rule)).when((handler) => handler.execute(request())).thenThrows(AuthRuleBacktestNotSupported, { field: 'auth_rule_token' });
  });
});
