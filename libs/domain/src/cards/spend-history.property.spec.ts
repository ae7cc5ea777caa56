import fc from 'fast-check';
import type { Merchant } from '../transactions/transaction-values';
import { cardDecider } from './card';
import type { Card, CardEvent, SpendAdjustmentCause } from './card-state';
import type { CardCommand } from './card';
import { cardSpendLimitStanding } from './card-spend-limits';
import { NO_SPEND_LIMIT, SpendLimitDuration } from './card-values';
import { SpendWindow, windowStart } from './spend-window';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { cardToken, programToken } from '../../test/fixtures';

/**
 * The card's spend history (spend-history.ts) against the plainest fold there can be: a Map of
 * entries copied on every event, and every window summed entry by entry, written out below as the
 * card fold and spend windows were before the history became a tree. Generated sequences of
 * approvals, adjustments (stale versions and unknown tokens included), returns (repeated ones too),
 * limit and duration changes, clock moves (backwards too, so times come out of order) and retries
 * on an earlier state are decided by the card decider and by the reference side by side: every
 * decision must be the same, and after every step what each window counts, for every window a limit
 * can have (the program's WEEKLY included), and the standing the API reports.
 */

// ---------------------------------------------------------------- the reference

interface ReferenceEntry {
  readonly at: string;
  readonly amount: number;
  readonly version: number;
}

/** What the reference keeps of a card: its limit, its duration, and every entry by token in first-seen order. */
interface ReferenceCard {
  readonly spendLimit: number;
  readonly spendLimitDuration: SpendLimitDuration;
  readonly spend: ReadonlyMap<string, ReferenceEntry>;
}

function referenceFold(card: ReferenceCard, event: CardEvent): ReferenceCard {
  const record = (token: string, entry: ReferenceEntry) => ({ ...card, spend: new Map(card.spend).set(token, entry) });
  switch (event.type) {
    case 'CardCreated':
      return { spendLimit: event.data.spendLimit, spendLimitDuration: event.data.spendLimitDuration, spend: new Map() };
    case 'CardDetailsChanged':
      return { ...card, spendLimit: event.data.spendLimit ?? card.spendLimit, spendLimitDuration: event.data.spendLimitDuration ?? card.spendLimitDuration };
    case 'CardAuthorizationApproved':
      return record(event.data.transactionToken, { at: event.data.at, amount: event.data.amount, version: 0 });
    case 'CardSpendAdjusted': {
      const entry = card.spend.get(event.data.transactionToken);
      return entry ? record(event.data.transactionToken, { ...entry, amount: event.data.amount, version: event.data.transactionVersion }) : card;
    }
    case 'CardReturnCredited':
      return record(event.data.transactionToken, { at: event.data.at, amount: -event.data.amount, version: 0 });
    default:
      return card;
  }
}

/** Net sum and lowest running sum, in doubles until a sum stops being a safe integer, then again in bigint. */
function referenceTally(amounts: readonly number[]): { net: bigint; lowest: bigint } {
  let net = 0;
  let lowest = 0;
  for (const amount of amounts) {
    net += amount;
    if (!Number.isSafeInteger(net)) {
      let exactNet = 0n;
      let exactLowest = 0n;
      for (const each of amounts) {
        exactNet += BigInt(each);
        if (exactNet < exactLowest) exactLowest = exactNet;
      }
      return { net: exactNet, lowest: exactLowest };
    }
    if (net < lowest) lowest = net;
  }
  return { net: BigInt(net), lowest: BigInt(lowest) };
}

function referenceWindowSpend(spend: ReadonlyMap<string, ReferenceEntry>, window: SpendWindow, now: Date): bigint {
  if (window === 'TRANSACTION') return 0n;
  const start = windowStart(window, now)?.getTime();
  const amounts: number[] = [];
  for (const entry of spend.values()) if (start === undefined || Date.parse(entry.at) >= start) amounts.push(entry.amount);
  const { net, lowest } = referenceTally(amounts);
  return net - lowest;
}

function referenceExceeds(card: ReferenceCard, amount: number, now: Date): boolean {
  if (card.spendLimit === NO_SPEND_LIMIT) return false;
  if (card.spendLimitDuration === 'TRANSACTION') return amount > card.spendLimit;
  return referenceWindowSpend(card.spend, card.spendLimitDuration, now) + BigInt(amount) > BigInt(card.spendLimit);
}

/** The decisions on spend, as the reference takes them: what kind of event, and why a decline. */
function referenceDecision(card: ReferenceCard, command: CardCommand, now: Date): string[] {
  switch (command.type) {
    case 'AuthorizeSpend':
      return [referenceExceeds(card, command.facts.amount, now) ? 'CardAuthorizationDeclined:USER_TRANSACTION_LIMIT' : 'CardAuthorizationApproved'];
    case 'AdjustSpend': {
      const entry = card.spend.get(command.transactionToken);
      return !entry || entry.version >= command.transactionVersion ? [] : ['CardSpendAdjusted'];
    }
    case 'CreditReturn':
      return card.spend.has(command.transactionToken) ? [] : ['CardReturnCredited'];
    case 'UpdateCard':
      return (command.spendLimit !== undefined && command.spendLimit !== card.spendLimit) ||
        (command.spendLimitDuration !== undefined && command.spendLimitDuration !== card.spendLimitDuration)
        ? ['CardDetailsChanged']
        : [];
    default:
      throw new Error(`not generated: ${command.type}`);
  }
}

const described = (events: readonly CardEvent[]): string[] =>
  events.map((event) => (event.type === 'CardAuthorizationDeclined' ? `${event.type}:${event.data.reason}` : event.type));

// ---------------------------------------------------------------- generated steps

const DAY = 86_400_000;
const WINDOWS: readonly SpendWindow[] = ['TRANSACTION', 'DAILY', 'WEEKLY', 'MONTHLY', 'ANNUALLY', 'FOREVER'];
const DURATIONS: readonly SpendLimitDuration[] = ['TRANSACTION', 'DAILY', 'MONTHLY', 'ANNUALLY', 'FOREVER'];
const merchant: Merchant = { acceptorId: '', city: 'NEW YORK', country: 'USA', descriptor: 'SHOP', mcc: '5999', state: 'NY' };

type Step =
  | { readonly kind: 'authorize'; readonly amount: number; readonly sameTokenAs: number | null }
  | { readonly kind: 'adjust'; readonly which: number; readonly unknown: boolean; readonly version: number; readonly amount: number; readonly cause: SpendAdjustmentCause }
  | { readonly kind: 'return'; readonly amount: number; readonly daysBefore: number; readonly sameTokenAs: number | null }
  | { readonly kind: 'change'; readonly duration: SpendLimitDuration; readonly limit: number | null }
  | { readonly kind: 'clock'; readonly by: number }
  | { readonly kind: 'retry'; readonly stepsBack: number };

const amount = fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 900 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }) });
const limit = fc.oneof(fc.constant(NO_SPEND_LIMIT), fc.integer({ min: 1, max: 5000 }), fc.constant(Number.MAX_SAFE_INTEGER));
/** Mostly a new token; now and then one the card already holds (an approval or return repeated: it replaces the entry in place). */
const sameTokenAs = fc.oneof({ weight: 12, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() });
/** Clock moves of a day or so, now and then months, and now and then back (times out of order). */
const clockMoves = fc.oneof({ weight: 10, arbitrary: fc.integer({ min: 0, max: 3 * DAY }) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 200 * DAY }) }, { weight: 1, arbitrary: fc.integer({ min: -40 * DAY, max: 0 }) });
/**
 * Clock moves of seconds (decisions moments apart, mostly between two of the card's entries' times:
 * where a window's tally of the tree is taken from its memo), of minutes and days (past entries'
 * times: where it must not be), of years, and back.
 */
const momentsAndYears = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 5_000 }) },
  { weight: 6, arbitrary: fc.integer({ min: 0, max: DAY / 4 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 40 * DAY }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 * 365 * DAY }) },
  { weight: 1, arbitrary: fc.integer({ min: -2 * DAY, max: 0 }) },
);
const stepsMovingBy = (clock: fc.Arbitrary<number>): fc.Arbitrary<Step> => fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant('authorize' as const), amount, sameTokenAs }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('adjust' as const), which: fc.nat(), unknown: fc.integer({ min: 0, max: 7 }).map((draw) => draw === 0), version: fc.integer({ min: 0, max: 6 }), amount, cause: fc.constantFrom<SpendAdjustmentCause>('ADVICE', 'VOID', 'CLEARING', 'RETURN_REVERSAL') }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('return' as const), amount, daysBefore: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 400 })), sameTokenAs }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('change' as const), duration: fc.constantFrom(...DURATIONS), limit: fc.option(limit) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('clock' as const), by: clock }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retry' as const), stepsBack: fc.integer({ min: 1, max: 20 }) }) },
);
const step = stepsMovingBy(clockMoves);

interface Both {
  readonly card: Card;
  readonly reference: ReferenceCard;
  readonly tokens: readonly string[];
}

function expectSameCounts({ card, reference }: Both, now: Date, context: string): void {
  if (card.status !== 'issued') throw new Error('the card is issued first');
  const counted = WINDOWS.map((window) => [window, card.spend.spentIn(window, now)]);
  const expected = WINDOWS.map((window) => [window, referenceWindowSpend(reference.spend, window, now)]);
  expect({ context, counted }).toEqual({ context, counted: expected });
  const standing = cardSpendLimitStanding(card, now);
  const windowed = reference.spendLimit !== NO_SPEND_LIMIT && reference.spendLimitDuration !== 'TRANSACTION';
  expect({ context, spent: standing?.spent ?? null }).toEqual({ context, spent: windowed ? referenceWindowSpend(reference.spend, reference.spendLimitDuration, now) : null });
}

function expectSameEntries({ card, reference }: Both): void {
  if (card.status !== 'issued') throw new Error('the card is issued first');
  const kept = [...card.spend.entries()].map((entry) => [entry.transactionToken, entry.amount, entry.version, entry.at]);
  const expected = [...reference.spend].map(([token, entry]) => [token, entry.amount, entry.version, Number.isNaN(Date.parse(entry.at)) ? -Infinity : Date.parse(entry.at)]);
  expect(kept).toEqual(expected);
}

function run(start: number, duration: SpendLimitDuration, initialLimit: number, steps: readonly Step[], checkEveryStep: boolean): void {
  const created = cardCreated({ spendLimit: initialLimit, spendLimitDuration: duration, expMonth: '12', expYear: '2099', created: new Date(start).toISOString() });
  let both: Both = { card: cardDecider.evolve(cardDecider.initialState(), created), reference: referenceFold({ spendLimit: 0, spendLimitDuration: 'FOREVER', spend: new Map() }, created), tokens: [] };
  const earlier: Both[] = [];
  let time = start;
  steps.forEach((next, index) => {
    const now = new Date(time);
    const context = `step ${index} (${next.kind})`;
    if (next.kind === 'clock') {
      time = Math.max(0, time + next.by);
    } else if (next.kind === 'retry') {
      // A decision taken again on a fold from before: the states since then are left behind, and
      // the one taken up again must still be exactly what it was.
      const back = earlier[Math.max(0, earlier.length - next.stepsBack)];
      if (back) {
        expectSameCounts(back, now, `${context}, the earlier state`);
        both = back;
      }
    } else {
      const token = (position: number | null, fresh: string) => (position === null || both.tokens.length === 0 ? fresh : both.tokens[position % both.tokens.length]);
      const command: CardCommand =
        next.kind === 'authorize'
          ? {
              type: 'AuthorizeSpend',
              facts: { cardToken, programToken, transactionToken: token(next.sameTokenAs, `txn-${index}`), eventToken: `e-${index}`, amount: next.amount, merchant, merchantAmount: next.amount, merchantCurrency: 'USD', authorizationCode: '000000' },
              checks: passingChecks(),
            }
          : next.kind === 'adjust'
            ? { type: 'AdjustSpend', cardToken, transactionToken: next.unknown ? `unknown-${index}` : token(next.which, `unknown-${index}`), transactionVersion: next.version, cause: next.cause, amount: next.amount }
            : next.kind === 'return'
              ? { type: 'CreditReturn', cardToken, transactionToken: token(next.sameTokenAs, `return-${index}`), eventToken: `e-${index}`, amount: next.amount, at: new Date(time - next.daysBefore * DAY).toISOString() }
              : { type: 'UpdateCard', cardToken, programToken, spendLimitDuration: next.duration, ...(next.limit === null ? {} : { spendLimit: next.limit }) };
      const decided = cardDecider.decide(command, both.card, { now });
      expect({ context, decided: described(decided) }).toEqual({ context, decided: referenceDecision(both.reference, command, now) });
      const added = decided.flatMap((event) => ('transactionToken' in event.data && !both.tokens.includes(event.data.transactionToken) ? [event.data.transactionToken] : []));
      earlier.push(both);
      both = { card: decided.reduce(cardDecider.evolve, both.card), reference: decided.reduce(referenceFold, both.reference), tokens: [...both.tokens, ...added] };
    }
    if (checkEveryStep) {
      expectSameCounts(both, new Date(time), context);
      expectSameEntries(both);
    }
  });
  expectSameCounts(both, new Date(time), 'the end');
  expectSameEntries(both);
  // Every state the run passed through still answers as it did when it was current.
  for (const state of earlier.slice(-30)) expectSameEntries(state);
}

describe('the card spend history decides exactly as the whole-map fold did', () => {
  const start = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 11, 31) });
  const duration = fc.constantFrom(...DURATIONS);

  it('for short histories (the newest entries only), at every step: the same decisions, the same count in every window, the same standing', () => {
    fc.assert(
      fc.property(start, duration, limit, fc.array(step, { minLength: 1, maxLength: 60 }), (from, first, initialLimit, steps) => run(from, first, initialLimit, steps, true)),
      { numRuns: 200 },
    );
  });

  it('for histories of hundreds of entries (leaves and a level of branches), at every step', () => {
    fc.assert(
      fc.property(start, duration, limit, fc.array(step, { minLength: 100, maxLength: 400 }), (from, first, initialLimit, steps) => run(from, first, initialLimit, steps, true)),
      { numRuns: 25 },
    );
  });

  it('for histories of thousands of entries (several levels of branches), at every decision', () => {
    fc.assert(
      fc.property(start, duration, limit, fc.array(step, { minLength: 1500, maxLength: 2500 }), (from, first, initialLimit, steps) => run(from, first, initialLimit, steps, false)),
      // Shrinking thousands of steps takes longer than reading the first failure.
      { numRuns: 4, endOnFailure: true },
    );
  });

  it('for histories of thousands of entries decided on moments apart and years apart, at every step: every window counted as the reference counts it', () => {
    fc.assert(
      fc.property(start, duration, limit, fc.array(stepsMovingBy(momentsAndYears), { minLength: 900, maxLength: 1200 }), (from, first, initialLimit, steps) => run(from, first, initialLimit, steps, true)),
      { numRuns: 2, endOnFailure: true },
    );
  });
});
