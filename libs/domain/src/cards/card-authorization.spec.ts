import { deciderSpecification } from '@ledger/test-support';
import { foldEvents } from '../core/decider';
import type { FundingSourceState } from '../programs/program';
import type { DeclineReason, Merchant } from '../transactions/transaction-values';
import { cardDecider } from './card';
import {
  AuthorizationFacts,
  CardClosedReason,
  CardCreated,
  CardEvent,
  IssuedCard,
  MAX_TRACKED_ATTEMPTS,
  SpendAdjustmentCause,
} from './card-state';
import {
  AdjustSpend,
  AuthorizationChecks,
  AuthorizeSpend,
  CreditReturn,
} from './card-authorization';
import { CardNotFound } from './card-errors';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { cardToken, coffeeShop, fundingToken, now, otherProgramToken, programToken } from '../../test/fixtures';

// ---------------------------------------------------------------- fixtures

const spec = deciderSpecification(cardDecider, { now });
const SECOND = 1000;
const DAY = 86_400 * SECOND;
const ago = (ms: number): string => new Date(now.getTime() - ms).toISOString();

const pinHash = 'hash-of-1234';

const bakery: Merchant = { acceptorId: '299887766554', city: 'BOSTON', country: 'USA', descriptor: 'BAKERY', mcc: '5462', state: 'MA' };
/** The same merchant as the network sends it without an acceptor id. */
const byDescriptor = (descriptor: string): Merchant => ({ ...coffeeShop, acceptorId: '', descriptor });

/** Every check passes: active program, matching CVV/expiry/PIN, a velocity rule not reached, ENABLED funding. */
const passing: AuthorizationChecks = passingChecks({ velocity: { maxAuthorizations: 3, windowSeconds: 60 }, cvvMatches: true, expiryMatches: true, presentedPinHash: pinHash });

// ---------------------------------------------------------------- events

/** An OPEN DIGITAL_WALLET card with a PIN and a 1000-cent TRANSACTION limit, valid until 11/2029. */
const created = (overrides: Partial<CardCreated['data']> = {}): CardCreated => cardCreated({ pinHash, ...overrides });

interface Past {
  readonly transactionToken?: string;
  readonly amount?: number;
  readonly at?: string;
  readonly merchant?: Merchant;
}

const pastFacts = ({ transactionToken = 'txn-past', amount = 100, at = ago(DAY), merchant = coffeeShop }: Past): AuthorizationFacts => ({
  cardToken,
  programToken,
  transactionToken,
  eventToken: `evt-${transactionToken}`,
  amount,
  merchant,
  merchantAmount: amount,
  merchantCurrency: 'USD',
  authorizationCode: '000001',
  fundingToken,
  at,
});

const approved = (past: Past = {}): CardEvent => ({ type: 'CardAuthorizationApproved', data: pastFacts(past) });
const declined = (reason: DeclineReason, past: Past = {}): CardEvent => ({ type: 'CardAuthorizationDeclined', data: { ...pastFacts(past), reason } });
const paused: CardEvent = { type: 'CardPaused', data: { cardToken } };
const closedBecause = (reason: CardClosedReason): CardEvent => ({ type: 'CardClosed', data: { cardToken, reason } });
const lockedTo = (merchantKey: string, hostname: string): CardEvent => ({ type: 'CardMerchantLocked', data: { cardToken, merchantKey, hostname } });
const spendAdjusted = (transactionToken: string, amount: number, cause: SpendAdjustmentCause = 'VOID', transactionVersion = 1): CardEvent => ({
  type: 'CardSpendAdjusted',
  data: { cardToken, transactionToken, transactionVersion, cause, amount },
});
const returnCredited = (transactionToken: string, amount: number, at = ago(DAY), eventToken = `evt-${transactionToken}`): CardEvent => ({
  type: 'CardReturnCredited',
  data: { cardToken, transactionToken, eventToken, amount, at },
});

/** A MERCHANT_LOCKED card that a day ago was approved at, and locked to, the bakery. */
const lockedToBakery: CardEvent[] = [
  created({ cardType: 'MERCHANT_LOCKED' }),
  approved({ merchant: bakery }),
  lockedTo('acceptor:299887766554', 'BAKERY'),
];
/** A SINGLE_USE card spent a day ago. */
const spentSingleUse: CardEvent[] = [created({ cardType: 'SINGLE_USE' }), approved(), closedBecause('SINGLE_USE_SPENT')];
/** Three attempts within the last minute: as many as the passing velocity rule allows. */
const threeRecentAttempts: CardEvent[] = [
  approved({ transactionToken: 'txn-1', at: ago(50 * SECOND), merchant: bakery }),
  declined('INSUFFICIENT_FUNDS', { transactionToken: 'txn-2', at: ago(40 * SECOND), merchant: bakery }),
  approved({ transactionToken: 'txn-3', at: ago(30 * SECOND), merchant: bakery }),
];

// ---------------------------------------------------------------- commands

interface Attempt {
  readonly amount?: number;
  readonly merchant?: Merchant;
  readonly transactionToken?: string;
  readonly programToken?: string;
  readonly checks?: Partial<AuthorizationChecks>;
}

const authorize = ({ amount = 500, merchant = coffeeShop, transactionToken = 'txn-now', checks = {}, ...rest }: Attempt = {}): AuthorizeSpend => ({
  type: 'AuthorizeSpend',
  facts: {
    cardToken,
    programToken: rest.programToken ?? programToken,
    transactionToken,
    eventToken: `evt-${transactionToken}`,
    amount,
    merchant,
    merchantAmount: amount,
    merchantCurrency: 'USD',
    authorizationCode: '654321',
  },
  checks: { ...passing, ...checks },
});

const adjustSpend = (transactionToken: string, amount: number, transactionVersion = 1): AdjustSpend => ({
  type: 'AdjustSpend',
  cardToken,
  transactionToken,
  transactionVersion,
  cause: 'VOID',
  amount,
});
const creditReturn = (transactionToken: string, amount: number, eventToken = `evt-${transactionToken}`): CreditReturn => ({
  type: 'CreditReturn',
  cardToken,
  transactionToken,
  eventToken,
  amount,
  at: ago(DAY),
});

// ---------------------------------------------------------------- expected decisions

/** What the card records for this command: the facts, the card's funding source and the decision time. */
const recorded = (command: AuthorizeSpend, { funding = fundingToken, at = now } = {}): AuthorizationFacts => ({
  ...command.facts,
  fundingToken: funding,
  at: at.toISOString(),
});
const approval = (command: AuthorizeSpend, recording: { funding?: string; at?: Date } = {}): CardEvent => ({
  type: 'CardAuthorizationApproved',
  data: recorded(command, recording),
});
const decline = (command: AuthorizeSpend, reason: DeclineReason, recording: { at?: Date } = {}): CardEvent => ({
  type: 'CardAuthorizationDeclined',
  data: { ...recorded(command, recording), reason },
});

/** Given these card events, when this attempt is decided (now, unless another day is named), then it is approved. */
const expectApproved = (given: readonly CardEvent[], attempt: Attempt = {}, today = now) => {
  const command = authorize(attempt);
  deciderSpecification(cardDecider, { now: today }).given(given).when(command).then([approval(command, { at: today })]);
};
const expectDeclined = (reason: DeclineReason, given: readonly CardEvent[], attempt: Attempt = {}, today = now) => {
  const command = authorize(attempt);
  deciderSpecification(cardDecider, { now: today }).given(given).when(command).then([decline(command, reason, { at: today })]);
};

const cardAfter = (events: readonly CardEvent[]): IssuedCard => {
  const card = foldEvents(cardDecider, events);
  if (card.status !== 'issued') throw new Error('expected an issued card');
  return card;
};

// ---------------------------------------------------------------- specs

describe('card authorization', () => {
  it('approves when every check passes, against the card’s funding source, at the decision time', () => {
    expectApproved([created()]);
  });

  it('approves when no CVV, expiry or PIN was presented', () => {
    expectApproved([created()], { checks: { cvvMatches: null, expiryMatches: null, presentedPinHash: null } });
  });

  it('records the funding source the card has now', () => {
    const command = authorize();
    spec
      .given([created(), { type: 'CardDetailsChanged', data: { cardToken, fundingToken: 'new-funding' } }])
      .when(command)
      .then([approval(command, { funding: 'new-funding' })]);
  });

  it('approves a card in the last month of its expiry (valid through the month’s end)', () => {
    expectApproved([created({ expMonth: '11', expYear: '2026' })]);
  });

  describe('each decline reason, provoked by exactly one failing check', () => {
    const cases: ReadonlyArray<{ reason: DeclineReason; rule: string; given?: CardEvent[]; attempt?: Attempt }> = [
      { reason: 'ACCOUNT_STATE_TRANSACTION_FAIL', rule: 'the program is CLOSED', attempt: { checks: { programState: 'CLOSED' } } },
      { reason: 'INACTIVE_ACCOUNT', rule: 'the program is PAUSED', attempt: { checks: { programState: 'PAUSED' } } },
      { reason: 'CARD_CLOSED', rule: 'the card was closed on request', given: [created(), closedBecause('REQUESTED')] },
      { reason: 'SINGLE_USE_RECHARGED', rule: 'the card is a spent single-use card', given: spentSingleUse },
      { reason: 'CARD_PAUSED', rule: 'the card is PAUSED', given: [created(), paused] },
      { reason: 'CARD_PAUSED', rule: 'the card was created PAUSED', given: [created({ state: 'PAUSED' })] },
      { reason: 'INVALID_CARD_DETAILS', rule: 'the CVV does not match', attempt: { checks: { cvvMatches: false } } },
      { reason: 'INVALID_CARD_DETAILS', rule: 'the presented expiry does not match', attempt: { checks: { expiryMatches: false } } },
      { reason: 'INVALID_CARD_DETAILS', rule: 'the card expired last month', given: [created({ expMonth: '10', expYear: '2026' })] },
      { reason: 'INCORRECT_PIN', rule: 'the presented PIN is not the card’s', attempt: { checks: { presentedPinHash: 'hash-of-9999' } } },
      { reason: 'INCORRECT_PIN', rule: 'a PIN is presented for a card without one', given: [created({ pinHash: null })] },
      { reason: 'MERCHANT_BLACKLIST', rule: 'the merchant is on the program’s blocklist', attempt: { checks: { merchantBlocked: true } } },
      { reason: 'UNAUTHORIZED_MERCHANT', rule: 'a merchant-locked card is used at another merchant', given: lockedToBakery },
      { reason: 'FRAUD_ADVICE', rule: 'the velocity rule’s attempts are used up', given: [created(), ...threeRecentAttempts] },
      { reason: 'USER_TRANSACTION_LIMIT', rule: 'the amount is above the card’s spend limit', attempt: { amount: 1001 } },
      { reason: 'GLOBAL_TRANSACTION_LIMIT', rule: 'the platform transaction limit is exceeded', attempt: { checks: { globalLimitExceeded: 'GLOBAL_TRANSACTION_LIMIT' } } },
      { reason: 'GLOBAL_WEEKLY_LIMIT', rule: 'the platform weekly limit is exceeded', attempt: { checks: { globalLimitExceeded: 'GLOBAL_WEEKLY_LIMIT' } } },
      { reason: 'GLOBAL_MONTHLY_LIMIT', rule: 'the platform monthly limit is exceeded', attempt: { checks: { globalLimitExceeded: 'GLOBAL_MONTHLY_LIMIT' } } },
      { reason: 'BANK_NOT_VERIFIED', rule: 'the funding source is PENDING', attempt: { checks: { fundingState: 'PENDING' } } },
      { reason: 'BANK_CONNECTION_ERROR', rule: 'the funding source is DISCONNECTED', attempt: { checks: { fundingState: 'DISCONNECTED' } } },
      { reason: 'BANK_CONNECTION_ERROR', rule: 'the funding source is DELETED', attempt: { checks: { fundingState: 'DELETED' } } },
      { reason: 'BANK_CONNECTION_ERROR', rule: 'the funding source is in a state it does not know', attempt: { checks: { fundingState: 'FROZEN' as FundingSourceState } } },
      { reason: 'INSUFFICIENT_FUNDS', rule: 'the funding source has INSUFFICIENT_FUNDS', attempt: { checks: { fundingState: 'INSUFFICIENT_FUNDS' } } },
      {
        reason: 'INSUFFICIENT_FUNDS_PRELOAD',
        rule: 'the program’s authorization stream answered it',
        attempt: { checks: { streamDecline: 'INSUFFICIENT_FUNDS_PRELOAD' } },
      },
      { reason: 'UNKNOWN_HOST_TIMEOUT', rule: 'the program’s authorization stream answered it', attempt: { checks: { streamDecline: 'UNKNOWN_HOST_TIMEOUT' } } },
    ];

    it.each(cases)('declines $reason when $rule', ({ reason, given = [created()], attempt = {} }) => {
      expectDeclined(reason, given, attempt);
    });
  });

  describe('priority when two checks fail', () => {
    const cases: ReadonlyArray<{ winner: DeclineReason; loser: DeclineReason; given?: CardEvent[]; attempt?: Attempt }> = [
      { winner: 'ACCOUNT_STATE_TRANSACTION_FAIL', loser: 'CARD_CLOSED', given: [created(), closedBecause('REQUESTED')], attempt: { checks: { programState: 'CLOSED' } } },
      { winner: 'INACTIVE_ACCOUNT', loser: 'CARD_CLOSED', given: [created(), closedBecause('REQUESTED')], attempt: { checks: { programState: 'PAUSED' } } },
      { winner: 'INACTIVE_ACCOUNT', loser: 'SINGLE_USE_RECHARGED', given: spentSingleUse, attempt: { checks: { programState: 'PAUSED' } } },
      { winner: 'CARD_CLOSED', loser: 'INVALID_CARD_DETAILS', given: [created(), closedBecause('REQUESTED')], attempt: { checks: { cvvMatches: false } } },
      { winner: 'SINGLE_USE_RECHARGED', loser: 'INVALID_CARD_DETAILS', given: spentSingleUse, attempt: { checks: { cvvMatches: false } } },
      { winner: 'CARD_PAUSED', loser: 'INVALID_CARD_DETAILS', given: [created(), paused], attempt: { checks: { expiryMatches: false } } },
      { winner: 'CARD_PAUSED', loser: 'USER_TRANSACTION_LIMIT', given: [created(), paused], attempt: { amount: 1001 } },
      { winner: 'INVALID_CARD_DETAILS', loser: 'INCORRECT_PIN', attempt: { checks: { cvvMatches: false, presentedPinHash: 'hash-of-9999' } } },
      { winner: 'INCORRECT_PIN', loser: 'MERCHANT_BLACKLIST', attempt: { checks: { presentedPinHash: 'hash-of-9999', merchantBlocked: true } } },
      { winner: 'MERCHANT_BLACKLIST', loser: 'UNAUTHORIZED_MERCHANT', given: lockedToBakery, attempt: { checks: { merchantBlocked: true } } },
      { winner: 'UNAUTHORIZED_MERCHANT', loser: 'FRAUD_ADVICE', given: [...lockedToBakery, ...threeRecentAttempts] },
      { winner: 'FRAUD_ADVICE', loser: 'USER_TRANSACTION_LIMIT', given: [created(), ...threeRecentAttempts], attempt: { amount: 1001 } },
      { winner: 'USER_TRANSACTION_LIMIT', loser: 'GLOBAL_TRANSACTION_LIMIT', attempt: { amount: 1001, checks: { globalLimitExceeded: 'GLOBAL_TRANSACTION_LIMIT' } } },
      { winner: 'GLOBAL_MONTHLY_LIMIT', loser: 'BANK_NOT_VERIFIED', attempt: { checks: { globalLimitExceeded: 'GLOBAL_MONTHLY_LIMIT', fundingState: 'PENDING' } } },
      { winner: 'INSUFFICIENT_FUNDS', loser: 'INSUFFICIENT_FUNDS_PRELOAD', attempt: { checks: { fundingState: 'INSUFFICIENT_FUNDS', streamDecline: 'INSUFFICIENT_FUNDS_PRELOAD' } } },
    ];

    it.each(cases)('declines $winner rather than $loser', ({ winner, given = [created()], attempt = {} }) => {
      expectDeclined(winner, given, attempt);
    });
  });

  describe('merchant-locked cards', () => {
    const merchantLocked = created({ cardType: 'MERCHANT_LOCKED' });

    it('locks to the first approved merchant by acceptor id, showing its descriptor as hostname', () => {
      const command = authorize();
      spec
        .given([merchantLocked])
        .when(command)
        .then([approval(command), lockedTo('acceptor:174030075991', 'COFFEE SHOP')]);
    });

    it('locks by descriptor, ignoring case, when the network sent no acceptor id', () => {
      const command = authorize({ merchant: byDescriptor('Coffee Shop') });
      spec
        .given([merchantLocked])
        .when(command)
        .then([approval(command), lockedTo('descriptor:coffee shop', 'Coffee Shop')]);
    });

    it('does not lock on a declined attempt', () => {
      const command = authorize();
      spec
        .given([merchantLocked, declined('INSUFFICIENT_FUNDS', { merchant: bakery })])
        .when(command)
        .then([approval(command), lockedTo('acceptor:174030075991', 'COFFEE SHOP')]);
    });

    it('declines UNAUTHORIZED_MERCHANT at a different merchant once locked', () => {
      expectDeclined('UNAUTHORIZED_MERCHANT', lockedToBakery, { merchant: coffeeShop });
    });

    it('declines UNAUTHORIZED_MERCHANT at a different acceptor id with the same descriptor', () => {
      expectDeclined('UNAUTHORIZED_MERCHANT', lockedToBakery, { merchant: { ...bakery, acceptorId: '111111111111' } });
    });

    it('approves the locked merchant again by acceptor id, whatever the descriptor, without locking again', () => {
      expectApproved(lockedToBakery, { merchant: { ...bakery, descriptor: 'BAKERY #2 DOWNTOWN' } });
    });

    it('approves the locked merchant again by descriptor, ignoring case and surrounding spaces, when there is no acceptor id', () => {
      const given = [merchantLocked, approved({ merchant: byDescriptor('COFFEE SHOP') }), lockedTo('descriptor:coffee shop', 'COFFEE SHOP')];
      expectApproved(given, { merchant: byDescriptor('  coffee shop ') });
    });

    it('shows the locked merchant as the card’s hostname', () => {
      expect(cardAfter(lockedToBakery)).toMatchObject({ hostname: 'BAKERY', lockedMerchantKey: 'acceptor:299887766554' });
      expect(cardAfter([merchantLocked]).hostname).toBe('');
    });

    it('never locks a card of another type', () => {
      expectApproved([created({ cardType: 'DIGITAL_WALLET' }), approved({ merchant: bakery })], { merchant: coffeeShop });
    });
  });

  describe.each(['VIRTUAL', 'UNLOCKED', 'DIGITAL_WALLET'] as const)('%s cards are multi-use at any merchant', (cardType) => {
    it('approves a second merchant after the first, locking to neither', () => {
      expectApproved([created({ cardType }), approved({ merchant: bakery })], { merchant: coffeeShop });
    });

    it('stays open after an approval', () => {
      const command = authorize();
      spec.given([created({ cardType })]).when(command).then([approval(command)]);
      expect(cardAfter([created({ cardType }), approved()])).toMatchObject({ state: 'OPEN', lockedMerchantKey: null, hostname: '' });
    });
  });

  describe('single-use cards', () => {
    const singleUse = created({ cardType: 'SINGLE_USE' });

    it('closes the card as SINGLE_USE_SPENT with its first approval', () => {
      const command = authorize();
      spec
        .given([singleUse])
        .when(command)
        .then([approval(command), closedBecause('SINGLE_USE_SPENT')]);
    });

    it('declines SINGLE_USE_RECHARGED on the next attempt', () => {
      expectDeclined('SINGLE_USE_RECHARGED', spentSingleUse);
    });

    it('stays open after a declined attempt', () => {
      const command = authorize();
      spec
        .given([singleUse, declined('INSUFFICIENT_FUNDS')])
        .when(command)
        .then([approval(command), closedBecause('SINGLE_USE_SPENT')]);
    });

    it('declines CARD_CLOSED when it was closed on request before being used', () => {
      expectDeclined('CARD_CLOSED', [singleUse, closedBecause('REQUESTED')]);
    });

    it('remembers why it closed', () => {
      expect(cardAfter(spentSingleUse)).toMatchObject({ state: 'CLOSED', closedReason: 'SINGLE_USE_SPENT' });
    });
  });

  describe('closed cards', () => {
    it('declines CARD_CLOSED on a card closed on request', () => {
      expectDeclined('CARD_CLOSED', [created(), closedBecause('REQUESTED')]);
    });

    it('declines CARD_CLOSED on a merchant-locked card closed on request, even at its own merchant', () => {
      expectDeclined('CARD_CLOSED', [...lockedToBakery, closedBecause('REQUESTED')], { merchant: bakery });
    });
  });

  describe('spend limits', () => {
    const limited = (spendLimitDuration: CardCreated['data']['spendLimitDuration'], spendLimit = 1000) => created({ spendLimit, spendLimitDuration });

    describe('TRANSACTION', () => {
      it('approves 1000 after an approved 1000 with a limit of 1000: each transaction stands alone', () => {
        expectApproved([limited('TRANSACTION'), approved({ amount: 1000, at: ago(60 * SECOND) })], { amount: 1000 });
      });

      it('declines 1001 with a limit of 1000', () => {
        expectDeclined('USER_TRANSACTION_LIMIT', [limited('TRANSACTION')], { amount: 1001 });
      });
    });

    describe('MONTHLY (trailing month to the same calendar date)', () => {
      it('counts an authorization made exactly one calendar month ago', () => {
        expectDeclined('USER_TRANSACTION_LIMIT', [limited('MONTHLY'), approved({ amount: 600, at: '2026-10-22T10:15:30.000Z' })], { amount: 500 });
      });

      it('no longer counts one made one calendar month and 1 ms ago', () => {
        expectApproved([limited('MONTHLY'), approved({ amount: 600, at: '2026-10-22T10:15:29.999Z' })], { amount: 1000 });
      });

      it('approves up to the limit exactly and declines one cent more', () => {
        const given = [limited('MONTHLY'), approved({ amount: 600, at: ago(3 * DAY) })];
        expectApproved(given, { amount: 400 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 401 });
      });

      it('adds up every authorization in the window', () => {
        const given = [
          limited('MONTHLY'),
          approved({ transactionToken: 'txn-1', amount: 300, at: ago(20 * DAY) }),
          approved({ transactionToken: 'txn-2', amount: 300, at: ago(10 * DAY) }),
        ];
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 401 });
      });

      it.each([
        ['28 February in a common year', '2026-03-31T10:15:30.000Z', '2026-02-28T10:15:30.000Z', '2026-02-28T10:15:29.999Z'],
        ['29 February in a leap year', '2028-03-31T10:15:30.000Z', '2028-02-29T10:15:30.000Z', '2028-02-29T10:15:29.999Z'],
      ])('starts the window of 31 March on %s', (_rule, march31, boundary, justBefore) => {
        const spentAt = (at: string) => [limited('MONTHLY'), approved({ amount: 600, at })];
        expectDeclined('USER_TRANSACTION_LIMIT', spentAt(boundary), { amount: 500 }, new Date(march31));
        expectApproved(spentAt(justBefore), { amount: 500 }, new Date(march31));
      });

      it('lets a return credited in the window free spend in the window', () => {
        const given = [limited('MONTHLY'), approved({ transactionToken: 'txn-1', amount: 900, at: ago(5 * DAY) }), returnCredited('txn-return', 500, ago(1 * DAY))];
        expectApproved(given, { amount: 600 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 601 });
      });

      it('frees nothing for a return credited before the window', () => {
        const given = [limited('MONTHLY'), approved({ transactionToken: 'txn-1', amount: 900, at: ago(5 * DAY) }), returnCredited('txn-return', 500, ago(40 * DAY))];
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 101 });
      });
    });

    describe('DAILY (the trailing 24 hours, not the calendar day)', () => {
      const HOUR = 3600 * SECOND;

      it('counts an authorization made exactly 24 hours ago', () => {
        expectDeclined('USER_TRANSACTION_LIMIT', [limited('DAILY'), approved({ amount: 600, at: ago(DAY) })], { amount: 401 });
      });

      it('no longer counts one made 24 hours and 1 ms ago', () => {
        expectApproved([limited('DAILY'), approved({ amount: 600, at: ago(DAY + 1) })], { amount: 1000 });
      });

      it('approves up to the limit exactly and declines one cent more', () => {
        const given = [limited('DAILY'), approved({ amount: 600, at: ago(3 * HOUR) })];
        expectApproved(given, { amount: 400 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 401 });
      });

      it('still counts spend from before UTC midnight just after it: a new calendar day frees nothing', () => {
        const justAfterMidnight = new Date('2026-11-23T00:30:00.000Z');
        const given = [limited('DAILY'), approved({ amount: 900, at: '2026-11-22T23:30:00.000Z' })];
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 101 }, justAfterMidnight);
        expectApproved(given, { amount: 100 }, justAfterMidnight);
      });

      it('adds up every authorization of the last 24 hours and none older', () => {
        const given = [
          limited('DAILY'),
          approved({ transactionToken: 'txn-old', amount: 900, at: ago(30 * HOUR) }),
          approved({ transactionToken: 'txn-1', amount: 300, at: ago(20 * HOUR) }),
          approved({ transactionToken: 'txn-2', amount: 300, at: ago(1 * HOUR) }),
        ];
        expectApproved(given, { amount: 400 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 401 });
      });

      it('lets a return credited in the window free spend before it in the window', () => {
        const given = [limited('DAILY'), approved({ transactionToken: 'txn-1', amount: 900, at: ago(5 * HOUR) }), returnCredited('txn-return', 500, ago(1 * HOUR))];
        expectApproved(given, { amount: 600 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 601 });
      });

      it('frees nothing for a return credited more than 24 hours ago', () => {
        const given = [limited('DAILY'), returnCredited('txn-return', 500, ago(2 * DAY)), approved({ transactionToken: 'txn-1', amount: 900, at: ago(5 * HOUR) })];
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 101 });
      });

      it('frees what a partial void gave back', () => {
        const given = [limited('DAILY'), approved({ transactionToken: 'txn-1', amount: 900, at: ago(2 * HOUR) }), spendAdjusted('txn-1', 300)];
        expectApproved(given, { amount: 700 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 701 });
      });
    });

    describe('ANNUALLY (calendar year)', () => {
      it('does not count last year’s spend', () => {
        expectApproved([limited('ANNUALLY'), approved({ amount: 600, at: '2025-12-31T23:59:59.999Z' })], { amount: 1000 });
      });

      it('counts this calendar year’s spend from midnight UTC on 1 January', () => {
        expectDeclined('USER_TRANSACTION_LIMIT', [limited('ANNUALLY'), approved({ amount: 600, at: '2026-01-01T00:00:00.000Z' })], { amount: 500 });
      });
    });

    describe('FOREVER (the card’s lifetime)', () => {
      const spent600 = [limited('FOREVER'), approved({ transactionToken: 'txn-1', amount: 600, at: '2026-01-02T00:00:00.000Z' })];

      it('counts spend of any age', () => {
        expectDeclined('USER_TRANSACTION_LIMIT', spent600, { amount: 401 });
        expectApproved(spent600, { amount: 400 });
      });

      it('frees what a full void (spend adjusted to 0) gave back', () => {
        expectApproved([...spent600, spendAdjusted('txn-1', 0, 'VOID')], { amount: 1000 });
      });

      it('frees what a partial void gave back, and no more', () => {
        const given = [...spent600, spendAdjusted('txn-1', 200, 'VOID')];
        expectApproved(given, { amount: 800 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 801 });
      });

      it('counts a clearing for more than authorized at the cleared amount', () => {
        expectDeclined('USER_TRANSACTION_LIMIT', [...spent600, spendAdjusted('txn-1', 900, 'CLEARING')], { amount: 101 });
      });

      it('counts an advised authorization at the advised amount', () => {
        expectApproved([...spent600, spendAdjusted('txn-1', 100, 'ADVICE')], { amount: 900 });
      });

      it('frees what a credited return gave back', () => {
        expectApproved([...spent600, returnCredited('txn-return', 600)], { amount: 1000 });
      });

      it('does not count declined authorizations', () => {
        expectApproved([limited('FOREVER'), declined('INSUFFICIENT_FUNDS', { amount: 900 })], { amount: 1000 });
      });
    });

    describe.each(['MONTHLY', 'ANNUALLY', 'FOREVER'] as const)('returns against a %s limit of 1000: a return undoes only spend before it', (duration) => {
      const card = limited(duration);
      const spend = (transactionToken: string, amount: number, daysAgo: number) => approved({ transactionToken, amount, at: ago(daysAgo * DAY) });
      const giveBack = (transactionToken: string, amount: number, daysAgo: number) => returnCredited(transactionToken, amount, ago(daysAgo * DAY));

      it('caps spend after a return at the limit: the return made no room', () => {
        const given = [card, giveBack('txn-return', 5000, 3)];
        expectApproved(given, { amount: 1000 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 1001 });
      });

      it('counts spend after a return in full', () => {
        const given = [card, giveBack('txn-return', 5000, 3), spend('txn-1', 600, 2)];
        expectApproved(given, { amount: 400 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 401 });
      });

      it('frees room with a return after spend', () => {
        const given = [card, spend('txn-1', 900, 3), giveBack('txn-return', 500, 2)];
        expectApproved(given, { amount: 600 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 601 });
      });

      it('frees only the spend before it with a return larger than that spend', () => {
        const given = [card, spend('txn-1', 300, 4), giveBack('txn-return', 5000, 3), spend('txn-2', 200, 2)];
        expectApproved(given, { amount: 800 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 801 });
      });

      it('goes by the order of the card events, not by the times they carry', () => {
        // The credit was recorded after the approval, though its time is a day earlier: it undoes it.
        expectApproved([card, spend('txn-1', 600, 1), giveBack('txn-return', 600, 2)], { amount: 1000 });
        // The credit was recorded before the approval, though its time is a day later: it undoes nothing.
        expectDeclined('USER_TRANSACTION_LIMIT', [card, giveBack('txn-return', 600, 1), spend('txn-1', 600, 2)], { amount: 401 });
      });

      it('counts a voided authorization as nothing, before or after a return', () => {
        const given = [card, spend('txn-1', 800, 3), giveBack('txn-return', 300, 2), spendAdjusted('txn-1', 0, 'VOID')];
        expectApproved(given, { amount: 1000 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 1001 });
      });

      it('counts a clearing for more than authorized at the cleared amount, where the authorization stands', () => {
        const given = [card, spend('txn-1', 600, 3), giveBack('txn-return', 600, 2), spendAdjusted('txn-1', 900, 'CLEARING')];
        expectApproved(given, { amount: 700 });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 701 });
      });
    });

    describe('window boundaries: a return in the window undoes only spend in the window before it', () => {
      // Each: 900 spent at `old`, a return of 900 at `returned`, 900 more at `recent` if any; then exactly `room` is left.
      it.each([
        { title: 'MONTHLY: a return this month frees nothing of spend older than a month', duration: 'MONTHLY', old: ago(40 * DAY), returned: ago(5 * DAY), recent: ago(1 * DAY), room: 100 },
        { title: 'ANNUALLY: a return this year frees nothing of last year’s spend', duration: 'ANNUALLY', old: '2025-12-31T23:59:59.999Z', returned: '2026-01-01T00:00:00.000Z', recent: ago(1 * DAY), room: 100 },
        // On 2026-11-22 the window starts on 2026-10-22: the return is in it, the spend it undid is not.
        { title: 'MONTHLY: once the spend it undid leaves the window, the return leaves nothing behind', duration: 'MONTHLY', old: '2026-10-21T00:00:00.000Z', returned: '2026-10-25T00:00:00.000Z', recent: null, room: 1000 },
      ] as const)('$title', ({ duration, old, returned, recent, room }) => {
        const given = [
          limited(duration),
          approved({ transactionToken: 'txn-old', amount: 900, at: old }),
          returnCredited('txn-return', 900, returned),
          ...(recent === null ? [] : [approved({ transactionToken: 'txn-new', amount: 900, at: recent })]),
        ];
        expectApproved(given, { amount: room });
        expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: room + 1 });
      });
    });

    it('decides on the exact total when the card’s spend passed 2^53 (a double total would approve 2 against a limit of 3)', () => {
      const max = Number.MAX_SAFE_INTEGER;
      const given = [
        limited('FOREVER', 0),
        approved({ transactionToken: 'txn-1', amount: max }),
        approved({ transactionToken: 'txn-2', amount: 2 }),
        returnCredited('txn-return', max),
        { type: 'CardDetailsChanged', data: { cardToken, spendLimit: 3 } } as CardEvent,
      ];
      expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 2 });
      expectApproved(given, { amount: 1 });
    });

    it.each(['TRANSACTION', 'MONTHLY', 'ANNUALLY', 'FOREVER'] as const)('treats a %s limit of 0 as no limit', (duration) => {
      expectApproved([limited(duration, 0), approved({ amount: 50_000_000, at: ago(DAY) })], { amount: 100_000_000 });
    });

    it('applies a spend limit changed after the card was created', () => {
      const given = [limited('TRANSACTION'), { type: 'CardDetailsChanged', data: { cardToken, spendLimit: 500, spendLimitDuration: 'FOREVER' } } as CardEvent];
      expectDeclined('USER_TRANSACTION_LIMIT', given, { amount: 501 });
    });

    describe('long histories (thousands of transactions, kept in a tree of runs)', () => {
      const HOUR = 3_600 * SECOND;
      /** `count` approvals of `amount`, one every `every` ms going back from now, oldest first. */
      const history = (count: number, amount: number, every: number): CardEvent[] =>
        Array.from({ length: count }, (_, index) => approved({ transactionToken: `txn-history-${index}`, amount, at: ago((count - index) * every) }));
      const changedTo = (spendLimitDuration: CardCreated['data']['spendLimitDuration'], spendLimit: number): CardEvent => ({ type: 'CardDetailsChanged', data: { cardToken, spendLimit, spendLimitDuration } });

      it('counts only the window of two years of spend, and all of it once the duration is changed to FOREVER', () => {
        // 10 cents every 6 hours for 750 days: the trailing month (744 hours, its start included) holds 124 of them.
        const twoYears = [limited('MONTHLY', 1300), ...history(3000, 10, 6 * HOUR)];
        expectApproved(twoYears, { amount: 60 });
        expectDeclined('USER_TRANSACTION_LIMIT', twoYears, { amount: 61 });
        const forever = [...twoYears, changedTo('FOREVER', 30_100)];
        expectApproved(forever, { amount: 100 });
        expectDeclined('USER_TRANSACTION_LIMIT', forever, { amount: 101 });
        // And back: the month again, not what FOREVER saw.
        expectApproved([...forever, changedTo('MONTHLY', 1300)], { amount: 60 });
      });

      it('adjusts a transaction from more than a year ago, deep in the history, and FOREVER counts the new amount', () => {
        const given = [limited('FOREVER'), approved({ transactionToken: 'txn-old', amount: 900, at: ago(400 * DAY) }), ...history(2000, 0, HOUR)];
        spec.given(given).when(adjustSpend('txn-old', 100)).then([spendAdjusted('txn-old', 100)]);
        expectApproved([...given, spendAdjusted('txn-old', 100)], { amount: 900 });
        expectDeclined('USER_TRANSACTION_LIMIT', [...given, spendAdjusted('txn-old', 100)], { amount: 901 });
      });

      it('ignores a late, older adjustment of a transaction deep in the history', () => {
        const given = [limited('FOREVER'), approved({ transactionToken: 'txn-old', amount: 900, at: ago(400 * DAY) }), spendAdjusted('txn-old', 100, 'CLEARING', 2), ...history(2000, 0, HOUR)];
        spec.given(given).when(adjustSpend('txn-old', 50, 1)).then([]);
        spec.given(given).when(adjustSpend('txn-old', 50, 2)).then([]);
        spec.given(given).when(adjustSpend('txn-never-seen', 50, 3)).then([]);
      });

      it('refuses a return credited long ago, however much history followed it', () => {
        const given = [limited('FOREVER'), returnCredited('txn-return', 600, ago(400 * DAY)), ...history(2000, 0, HOUR)];
        spec.given(given).when(creditReturn('txn-return', 600)).then([]);
        spec.given(given).when(creditReturn('txn-other-return', 600)).then([returnCredited('txn-other-return', 600)]);
      });

      it('lets a return dated before spend folded earlier undo that spend (event order, not time), in FOREVER only', () => {
        // The return's time is a month before the approval it follows: FOREVER counts it after the approval;
        // DAILY has the approval but not the return.
        const given = [...history(1000, 0, HOUR), approved({ transactionToken: 'txn-1', amount: 600, at: ago(HOUR / 2) }), returnCredited('txn-return', 600, ago(30 * DAY))];
        expectApproved([limited('FOREVER'), ...given], { amount: 1000 });
        expectApproved([limited('DAILY'), ...given], { amount: 400 });
        expectDeclined('USER_TRANSACTION_LIMIT', [limited('DAILY'), ...given], { amount: 401 });
      });
    });
  });

  describe('velocity rule (3 attempts per 60 seconds)', () => {
    it('declines FRAUD_ADVICE once the window holds 3 attempts, declined ones included', () => {
      expectDeclined('FRAUD_ADVICE', [created(), ...threeRecentAttempts]);
    });

    it('approves while the window holds fewer attempts than the rule allows', () => {
      expectApproved([created(), ...threeRecentAttempts.slice(1)]);
    });

    it('does not count attempts older than the window', () => {
      expectApproved([created(), declined('INSUFFICIENT_FUNDS', { transactionToken: 'txn-0', at: ago(61 * SECOND) }), ...threeRecentAttempts.slice(1)]);
    });

    it('does not count an attempt exactly as old as the window', () => {
      expectApproved([created(), declined('INSUFFICIENT_FUNDS', { transactionToken: 'txn-0', at: ago(60 * SECOND) }), ...threeRecentAttempts.slice(1)]);
    });

    it('keeps declining while attempts keep coming, since each FRAUD_ADVICE decline is an attempt too', () => {
      const blocked = [created(), declined('FRAUD_ADVICE', { at: ago(20 * SECOND) }), declined('FRAUD_ADVICE', { at: ago(10 * SECOND) }), declined('FRAUD_ADVICE', { at: ago(1 * SECOND) })];
      expectDeclined('FRAUD_ADVICE', blocked);
    });

    it('limits nothing without a velocity rule', () => {
      expectApproved([created(), ...threeRecentAttempts], { checks: { velocity: null } });
    });

    it(`remembers the latest ${MAX_TRACKED_ATTEMPTS} attempts, newest last`, () => {
      const attempts = Array.from({ length: MAX_TRACKED_ATTEMPTS + 5 }, (_, index) => declined('INSUFFICIENT_FUNDS', { at: ago((200 - index) * SECOND) }));
      const remembered = cardAfter([created(), ...attempts]).recentAttempts;
      expect(remembered).toHaveLength(MAX_TRACKED_ATTEMPTS);
      expect(remembered[remembered.length - 1]).toBe(ago((200 - (MAX_TRACKED_ATTEMPTS + 4)) * SECOND));
    });
  });

  describe('spend adjustments and return credits', () => {
    const withAuthorization = [created({ spendLimitDuration: 'FOREVER' }), approved({ transactionToken: 'txn-1', amount: 600 })];

    it('records a spend adjustment for a transaction event', () => {
      spec
        .given(withAuthorization)
        .when(adjustSpend('txn-1', 0))
        .then([spendAdjusted('txn-1', 0, 'VOID')]);
    });

    it('records nothing for a transaction event already applied', () => {
      spec
        .given([...withAuthorization, spendAdjusted('txn-1', 0, 'VOID', 1)])
        .when(adjustSpend('txn-1', 0, 1))
        .then([]);
    });

    it('records a second adjustment of the same transaction by a later event', () => {
      spec
        .given([...withAuthorization, spendAdjusted('txn-1', 400, 'VOID', 1)])
        .when(adjustSpend('txn-1', 0, 2))
        .then([spendAdjusted('txn-1', 0, 'VOID', 2)]);
    });

    it('ignores an adjustment older than the one applied (a late replay after a clearing)', () => {
      spec
        .given([...withAuthorization, spendAdjusted('txn-1', 400, 'VOID', 1), spendAdjusted('txn-1', 450, 'CLEARING', 2)])
        .when(adjustSpend('txn-1', 400, 1))
        .then([]);
    });

    it('ignores an adjustment for a transaction the card never approved', () => {
      spec.given(withAuthorization).when(adjustSpend('txn-unknown', 0, 1)).then([]);
    });

    it('records a return credit', () => {
      spec
        .given(withAuthorization)
        .when(creditReturn('txn-return', 600))
        .then([returnCredited('txn-return', 600)]);
    });

    it('records nothing for a return already credited', () => {
      spec
        .given([...withAuthorization, returnCredited('txn-return', 600)])
        .when(creditReturn('txn-return', 600))
        .then([]);
    });

    it('credits a return to a closed card', () => {
      spec
        .given([...withAuthorization, closedBecause('REQUESTED')])
        .when(creditReturn('txn-return', 600))
        .then([returnCredited('txn-return', 600)]);
    });

    it('adjusts spend on a single-use card that closed when spent', () => {
      spec
        .given(spentSingleUse)
        .when(adjustSpend('txn-past', 0))
        .then([spendAdjusted('txn-past', 0, 'VOID')]);
    });

    it('folds approvals, adjustments and returns into the spend record', () => {
      const card = cardAfter([...withAuthorization, spendAdjusted('txn-1', 250, 'CLEARING'), returnCredited('txn-return', 100, ago(1 * SECOND))]);
      expect([...card.spend.entries()]).toEqual([
        { transactionToken: 'txn-1', at: Date.parse(ago(DAY)), amount: 250, version: 1 },
        { transactionToken: 'txn-return', at: Date.parse(ago(1 * SECOND)), amount: -100, version: 0 },
      ]);
    });

    it('answers not found when adjusting the spend of an unknown card', () => {
      spec.given([]).when(adjustSpend('txn-1', 0)).thenThrows(CardNotFound);
    });

    it('answers not found when crediting a return to an unknown card', () => {
      spec.given([]).when(creditReturn('txn-return', 100)).thenThrows(CardNotFound);
    });
  });

  describe('finding the card', () => {
    it('answers not found for an unknown card', () => {
      spec.given([]).when(authorize()).thenThrows(CardNotFound, `Card ${cardToken} not found`);
    });

    it('answers not found for another program’s card, exactly as for a missing one', () => {
      spec
        .given([created()])
        .when(authorize({ programToken: otherProgramToken }))
        .thenThrows(CardNotFound, `Card ${cardToken} not found`);
    });
  });
});
