import fc from 'fast-check';
import type { AuthorizationFacts } from '../cards/card-state';
import type { FundingSourceState } from '../programs/program';
import { transactionDecider, type Transaction, type TransactionCommand, type TransactionEvent } from '../transactions/transaction';
import { coffeeShop, fundingToken, programToken } from '../../test/fixtures';
import { accountBalance, balanceOf, type AccountBalance } from './account-balance';
import { transactionAsOf } from './balance-as-of';
import { balanceMovements, type RecordedTransactionEvent } from './balance-movements';
import { type Dispute, type DisputeCommand, disputeDecider, disputeTokenOf } from '../disputes/dispute';
import { decideDisputeAndTransaction } from '../disputes/dispute-and-transaction';

/**
 * Balances against the plainest sum there is: random sequences of authorizations, clearings, voids,
 * expiries, returns, return reversals, settlements (bounced ones too) and disputes (won or lost) over
 * a few transactions are decided by the transaction and dispute deciders; after every step the balance of all the transactions must equal
 * a running sum of the events' own amounts, and afterwards the balance time travel shows at each
 * step's moment must equal the balance right after that step, and so must the sum of the balance
 * movements (a statement's line items) that occurred by then.
 */

const TOKENS = ['0d6b6c8e-1f4a-4c3b-9a51-6f1c2e3d4a51', '1e7c7d9f-2a5b-4d4c-8b62-7a2d3f4e5b62', '2f8d8e0a-3b6c-4e5d-9c73-8b3e4a5f6c73'];
const CARDS = ['3a9e9f1b-4c7d-4f6e-8d84-9c4f5b6a7d84', '4b0f0a2c-5d8e-4a7f-9e95-0d5a6c7b8e95'];

type Step =
  | { readonly kind: 'authorize' | 'return'; readonly transaction: number; readonly card: number; readonly amount: number; readonly declined: boolean }
  | { readonly kind: 'void' | 'clear'; readonly transaction: number; readonly amount: number | undefined }
  | { readonly kind: 'expire' | 'reverse'; readonly transaction: number }
  | { readonly kind: 'settle'; readonly transaction: number; readonly fundingState: FundingSourceState }
  /** A dispute filed for the amount, submitted, then won or lost at once. */
  | { readonly kind: 'dispute'; readonly transaction: number; readonly amount: number; readonly won: boolean };

const amount = fc.integer({ min: 1, max: 5_000_000 });
const transaction = fc.integer({ min: 0, max: TOKENS.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom('authorize' as const, 'return' as const), transaction, card: fc.integer({ min: 0, max: CARDS.length - 1 }), amount, declined: fc.boolean() }),
  fc.record({ kind: fc.constantFrom('void' as const, 'clear' as const), transaction, amount: fc.option(amount, { nil: undefined }) }),
  fc.record({ kind: fc.constantFrom('expire' as const, 'reverse' as const), transaction }),
  fc.record({ kind: fc.constant('settle' as const), transaction, fundingState: fc.constantFrom<FundingSourceState>('ENABLED', 'INSUFFICIENT_FUNDS') }),
  // Often, and mostly for less than a purchase clears, so that many runs file one on a cleared purchase.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('dispute' as const), transaction, amount: fc.integer({ min: 1, max: 100_000 }), won: fc.boolean() }) },
);

/**
 * The transaction events a dispute's life calls for: filed, submitted and ended through the dispute
 * decider (which checks the transaction), and the credit of a won case. Refused as the deciders refuse.
 */
let wonDisputes = 0;

function disputeEvents(s: Extract<Step, { kind: 'dispute' }>, transaction: Transaction, eventToken: string, now: Date): TransactionEvent[] {
  const transactionToken = TOKENS[s.transaction];
  const disputeToken = disputeTokenOf(transactionToken);
  const commands: DisputeCommand[] = [
    { type: 'FileDispute', programToken, transactionToken, amount: s.amount, reason: 'OTHER' },
    { type: 'AdvanceDispute', programToken, disputeToken, status: 'SUBMITTED' },
    { type: 'AdvanceDispute', programToken, disputeToken, status: s.won ? 'CASE_WON' : 'CASE_CLOSED' },
  ];
  let dispute: Dispute = disputeDecider.initialState();
  for (const command of commands) {
    const decided = decideDisputeAndTransaction(command, dispute, transaction, now, eventToken);
    dispute = decided.dispute.reduce(disputeDecider.evolve, dispute);
    if (decided.transaction.length > 0) {
      wonDisputes += 1;
      return [...decided.transaction];
    }
  }
  return [];
}

function facts(s: Extract<Step, { kind: 'authorize' | 'return' }>, eventToken: string, at: string): AuthorizationFacts {
  const transactionToken = TOKENS[s.transaction];
  return { cardToken: CARDS[s.card], programToken, transactionToken, eventToken, amount: s.amount, merchant: coffeeShop, merchantAmount: s.amount, merchantCurrency: 'USD', authorizationCode: '000001', fundingToken, at };
}

function commandOf(s: Step, eventToken: string, at: string): TransactionCommand {
  const target = { transactionToken: TOKENS[s.transaction], programToken };
  switch (s.kind) {
    case 'authorize':
      return { type: 'RecordAuthorization', facts: facts(s, eventToken, at), result: s.declined ? 'INSUFFICIENT_FUNDS' : 'APPROVED' };
    case 'return':
      return { type: 'RecordReturn', facts: facts(s, eventToken, at) };
    case 'void':
      return { type: 'VoidAuthorization', ...target, eventToken, amount: s.amount };
    case 'clear':
      return { type: 'ClearAuthorization', ...target, eventToken, amount: s.amount };
    case 'expire':
      return { type: 'ExpireAuthorization', ...target, eventToken };
    case 'reverse':
      return { type: 'ReverseReturn', ...target, eventToken };
    case 'settle':
      return { type: 'SettleTransaction', ...target, fundingState: s.fundingState };
    case 'dispute':
      throw new Error('a dispute is decided by disputeEvents');
  }
}

/** The reference: per transaction what it holds and what it moved, changed by each event's own amount. */
interface ReferenceSums {
  readonly held: number;
  readonly moved: number;
}

function referenceStep(sums: ReferenceSums, event: TransactionEvent): ReferenceSums {
  switch (event.type) {
    case 'TransactionAuthorized':
      return event.data.result === 'APPROVED' ? { held: event.data.amount, moved: 0 } : { held: 0, moved: 0 };
    case 'TransactionReturned':
      return { held: 0, moved: -event.data.amount };
    case 'TransactionVoided':
    case 'TransactionExpired':
      return { ...sums, held: sums.held - event.data.amount };
    case 'TransactionCleared':
      return { held: 0, moved: event.data.amount };
    case 'TransactionReturnReversed':
      return { ...sums, moved: sums.moved + event.data.amount };
    case 'TransactionBounced':
      return { ...sums, moved: 0 };
    case 'TransactionDisputeWon':
      return { ...sums, moved: sums.moved - event.data.amount };
    default:
      return sums;
  }
}

function referenceBalance(sums: Iterable<ReferenceSums>): AccountBalance {
  let held = 0n;
  let moved = 0n;
  for (const one of sums) {
    held += BigInt(one.held);
    moved += BigInt(one.moved);
  }
  return accountBalance({ pending: held, settled: moved });
}

describe('a balance, for random sequences of card transaction events', () => {
  it('equals a plain sum of the events after every step, and what time travel shows at each step', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40, size: 'max' }), (steps) => {
        const states = new Map<string, Transaction>();
        const reference = new Map<string, ReferenceSums>();
        const dated = new Map<string, RecordedTransactionEvent[]>();
        const after: { at: Date; balance: AccountBalance }[] = [];
        steps.forEach((s, index) => {
          const now = new Date(Date.UTC(2026, 10, 1) + index * 60_000);
          const token = TOKENS[s.transaction];
          const state = states.get(token) ?? transactionDecider.initialState();
          let events: TransactionEvent[] = [];
          try {
            events = s.kind === 'dispute' ? disputeEvents(s, state, `event-${index}`, now) : transactionDecider.decide(commandOf(s, `event-${index}`, now.toISOString()), state, { now });
          } catch {
            // A refused command (not pending, not found, too much) records nothing: the balance must not move.
          }
          for (const [position, event] of events.entries()) {
            states.set(token, transactionDecider.evolve(states.get(token) ?? transactionDecider.initialState(), event));
            reference.set(token, referenceStep(reference.get(token) ?? { held: 0, moved: 0 }, event));
            dated.set(token, [...(dated.get(token) ?? []), { eventId: `event-${index}-${position}`, occurredAt: now.toISOString(), event }]);
          }
          const balance = balanceOf(states.values());
          expect(balance).toEqual(referenceBalance(reference.values()));
          expect(balance.total).toBe(balance.available + balance.pending);
          after.push({ at: now, balance });
        });
        const movements = [...dated.values()].flatMap(balanceMovements);
        for (const { at, balance } of after) {
          expect(balanceOf([...dated.values()].map((events) => transactionAsOf(events, at)))).toEqual(balance);
          // A statement's line items: the total by then is the sum of the movements by then.
          expect(movements.filter((movement) => Date.parse(movement.occurredAt) <= at.getTime()).reduce((sum, movement) => sum + movement.amount, 0n)).toBe(balance.total);
        }
      }),
      { numRuns: 300 },
    );
    // The runs did give won disputes' credits back, not only refuse them.
    expect(wonDisputes).toBeGreaterThan(0);
  });
});
