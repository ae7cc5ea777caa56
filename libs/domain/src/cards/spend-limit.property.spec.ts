import fc from 'fast-check';
import type { Merchant } from '../transactions/transaction-values';
import { cardDecider } from './card';
import { Card, CardEvent } from './card-state';
import { AuthorizeSpend, CreditReturn } from './card-authorization';
import { SpendLimitDuration } from './card-values';
import { windowStart } from './spend-window';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { cardToken, programToken } from '../../test/fixtures';

/**
 * Generated histories of authorizations, returns and voids on a limited card, decided one by one by
 * the card decider as time goes by. Whatever the order, the rule of docs/decisions.md ("Spend
 * windows") holds at every authorization: with `spent` the running total of the window's entries in
 * event order, clamped at zero at each credit, the authorization is approved exactly when
 * spent + amount <= limit. So a return never makes room for spend after it.
 */

const LIMIT = 1000;
const DAY = 86_400_000;
const merchant: Merchant = { acceptorId: '', city: 'NEW YORK', country: 'USA', descriptor: 'SHOP', mcc: '5999', state: 'NY' };

type Step =
  | { readonly kind: 'authorize'; readonly amount: number; readonly laterBy: number }
  | { readonly kind: 'return'; readonly amount: number; readonly laterBy: number }
  | { readonly kind: 'void'; readonly which: number; readonly keep: number; readonly laterBy: number };

const laterBy = fc.integer({ min: 0, max: 20 * DAY });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('authorize' as const), amount: fc.integer({ min: 1, max: 700 }), laterBy }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('return' as const), amount: fc.integer({ min: 1, max: 3000 }), laterBy }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), which: fc.nat(), keep: fc.double({ min: 0, max: 1, noNaN: true }), laterBy }) },
);

/** What the card counts, as the test sees it: every approved authorization and every return, in event order. */
interface Counted {
  readonly token: string;
  readonly at: string;
  amount: number;
  readonly credit: boolean;
}

/** The rule, written as plainly as possible: a running total of the window's entries, clamped at zero at each credit. */
function spentBefore(counted: readonly Counted[], duration: SpendLimitDuration, now: Date): number {
  const start = windowStart(duration, now)?.getTime() ?? Number.NEGATIVE_INFINITY;
  let total = 0;
  for (const entry of counted) {
    if (Date.parse(entry.at) < start) continue;
    total = entry.credit ? Math.max(0, total - entry.amount) : total + entry.amount;
  }
  return total;
}

function run(duration: SpendLimitDuration, startAt: number, steps: readonly Step[]) {
  let card: Card = cardDecider.initialState();
  const apply = (events: readonly CardEvent[]) => (card = events.reduce(cardDecider.evolve, card));
  apply([cardCreated({ spendLimit: LIMIT, spendLimitDuration: duration, expMonth: '12', expYear: '2099', created: new Date(startAt).toISOString() })]);
  const counted: Counted[] = [];
  let time = startAt;
  steps.forEach((next, index) => {
    time += next.laterBy;
    const now = new Date(time);
    const token = `txn-${index}`;
    if (next.kind === 'authorize') {
      const spent = spentBefore(counted, duration, now);
      const command: AuthorizeSpend = {
        type: 'AuthorizeSpend',
        facts: { cardToken, programToken, transactionToken: token, eventToken: `e-${token}`, amount: next.amount, merchant, merchantAmount: next.amount, merchantCurrency: 'USD', authorizationCode: '000000' },
        checks: passingChecks(),
      };
      const decision = cardDecider.decide(command, card, { now });
      apply(decision);
      const decided = decision.some((event) => event.type === 'CardAuthorizationApproved');
      expect({ step: index, spent, amount: next.amount, approved: decided }).toEqual({ step: index, spent, amount: next.amount, approved: spent + next.amount <= LIMIT });
      if (decided) counted.push({ token, at: now.toISOString(), amount: next.amount, credit: false });
    } else if (next.kind === 'return') {
      const command: CreditReturn = { type: 'CreditReturn', cardToken, transactionToken: token, eventToken: `e-${token}`, amount: next.amount, at: now.toISOString() };
      apply(cardDecider.decide(command, card, { now }));
      counted.push({ token, at: now.toISOString(), amount: next.amount, credit: true });
    } else {
      const spends = counted.filter((entry) => !entry.credit);
      if (spends.length === 0) return;
      const target = spends[next.which % spends.length];
      const remaining = Math.floor(target.amount * next.keep);
      apply(
        cardDecider.decide({ type: 'AdjustSpend', cardToken, transactionToken: target.token, transactionVersion: index + 1, cause: 'VOID', amount: remaining }, card, { now }),
      );
      target.amount = remaining;
    }
  });
  return { counted, end: new Date(time) };
}

describe('spend limits over generated histories of spend, returns and voids', () => {
  const startAt = fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2027, 11, 31) });
  const history = fc.array(step, { minLength: 1, maxLength: 60 });

  it.each(['MONTHLY', 'ANNUALLY', 'FOREVER'] as const)('%s: at every authorization, approved exactly when the clamped running total + amount <= limit', (duration) => {
    fc.assert(fc.property(startAt, history, (start, steps) => void run(duration, start, steps)), { numRuns: 300 });
  });

  it('FOREVER: what approvals after the last return still count never exceeds the limit, however large the returns', () => {
    fc.assert(
      fc.property(startAt, history, (start, steps) => {
        const { counted } = run('FOREVER', start, steps);
        const lastReturn = counted.map((entry) => entry.credit).lastIndexOf(true);
        const after = counted.slice(lastReturn + 1).reduce((sum, entry) => sum + entry.amount, 0);
        expect(after).toBeLessThanOrEqual(LIMIT);
      }),
      { numRuns: 300 },
    );
  });
});
