import { foldEvents } from '../core/decider';
import { cardDecider } from '../cards/card';
import type { AuthorizationFacts, CardEvent, IssuedCard } from '../cards/card-state';
import { CardNotFound } from '../cards/card-errors';
import { programDecider, type ExistingProgram, type ProgramEvent } from '../programs/program';
import { transactionDecider, type TransactionEvent } from '../transactions/transaction';
import { AmountAboveAvailable, TransactionEventTokenWithdrawn, TransactionNotFound, TransactionStateConflict } from '../transactions/transaction-errors';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { NO_CARD_ACTIVITY } from '../cards/card-activity';
import { cardToken, coffeeShop, fundingToken, now, otherProgramToken, programToken } from '../../test/fixtures';
import { authorizationChecks, cardWouldApprove, partiallyApproved, type PresentedDetails } from './authorization-checks';
import type { AccountVelocityLimit } from '../auth-rules/account-velocity-usage';
import type { VelocityLimitParameters } from '../auth-rules/auth-rule-parameters';
import { decideAuthorizationAndTransaction } from './authorize';
import { decideTransactionMovement, type TransactionMovement } from './move-transaction';
import { decideReturn } from './record-return';
import { decideSettlement } from './settle';

// Each use case decides a card and its transaction at once; these specs give both streams' past
// events and check both lists of new events, and that the card always ends up counting exactly the
// transaction's amount.

const at = now.toISOString();
const transactionToken = 'a1b2c3d4-0000-4000-8000-000000000001';

const card = (events: CardEvent[] = []): IssuedCard => foldEvents(cardDecider, [cardCreated(), ...events]) as IssuedCard;
const program = (events: ProgramEvent[] = []): ExistingProgram =>
  foldEvents(programDecider, [
    { type: 'ProgramCreated', data: { programToken, name: 'Sandbox', created: at } },
    { type: 'FundingSourceAdded', data: { programToken, fundingToken, type: 'DEPOSITORY_CHECKING', accountName: 'Checking', lastFour: '6789', nickname: '', state: 'ENABLED', created: at, isDefault: true } },
    ...events,
  ] as ProgramEvent[]) as ExistingProgram;

const facts = (amount: number): AuthorizationFacts => ({
  cardToken,
  programToken,
  transactionToken,
  eventToken: 'evt-authorization',
  amount,
  merchant: coffeeShop,
  merchantAmount: amount,
  merchantCurrency: 'USD',
  authorizationCode: '000001',
  fundingToken,
  at,
});
const { at: _at, fundingToken: _funding, ...requested } = facts(500);
const authorize = { type: 'AuthorizeSpend' as const, facts: requested, checks: passingChecks() };
const cardApproved: CardEvent = { type: 'CardAuthorizationApproved', data: facts(500) };
const transactionAuthorized: TransactionEvent = { type: 'TransactionAuthorized', data: { ...facts(500), result: 'APPROVED' } };
const noTransaction = transactionDecider.initialState();
const pendingTransaction = foldEvents(transactionDecider, [transactionAuthorized]);

const nothingPresented: PresentedDetails = { cvv: null, pinHash: null };

describe('authorizationChecks: what an authorization is decided on, from the program, the card and what was presented', () => {
  it('lets everything pass for an active program, an enabled funding source and nothing presented', () => {
    const existing = program();
    // The rules read the program's creation as the account's (ACCOUNT_AGE); no ACCOUNT velocity limit has counted anything.
    const authRules = { rules: [], accountCreated: existing.created, activity: NO_CARD_ACTIVITY, accountUsage: new Map() };
    expect(authorizationChecks(existing, card(), coffeeShop, nothingPresented, { globalLimitExceeded: null })).toEqual(passingChecks({ authRules }));
  });

  it('takes a funding source the program no longer has for DELETED', () => {
    const elsewhere = card([{ type: 'CardDetailsChanged', data: { cardToken, fundingToken: 'gone' } } as CardEvent]);
    expect(authorizationChecks(program(), elsewhere, coffeeShop, nothingPresented, { globalLimitExceeded: null }).fundingState).toBe('DELETED');
  });

  it('compares the presented CVV, expiry and PIN with the card', () => {
    const checks = authorizationChecks(program(), card(), coffeeShop, { cvv: { presented: '123', cards: '124' }, expMonth: '11', expYear: '2030', pinHash: 'p' }, { globalLimitExceeded: null });
    expect({ cvv: checks.cvvMatches, expiry: checks.expiryMatches, pin: checks.presentedPinHash }).toEqual({ cvv: false, expiry: false, pin: 'p' });
    const matching = authorizationChecks(program(), card(), coffeeShop, { cvv: { presented: '123', cards: '123' }, expMonth: '11', expYear: '2029', pinHash: null }, { globalLimitExceeded: null });
    expect({ cvv: matching.cvvMatches, expiry: matching.expiryMatches }).toEqual({ cvv: true, expiry: true });
  });

  it("carries the program's state, blocks and velocity rule, and the outside's platform-limit answer", () => {
    const ruled = program([
      { type: 'ProgramSettingsChanged', data: { programToken, state: 'PAUSED', blockedMerchants: ['coffee shop'], velocityRule: { maxAuthorizations: 2, windowSeconds: 60 } } } as ProgramEvent,
    ]);
    const checks = authorizationChecks(ruled, card(), coffeeShop, nothingPresented, { globalLimitExceeded: 'GLOBAL_WEEKLY_LIMIT' });
    expect(checks).toMatchObject({ programState: 'PAUSED', merchantBlocked: true, velocity: { maxAuthorizations: 2, windowSeconds: 60 }, globalLimitExceeded: 'GLOBAL_WEEKLY_LIMIT' });
  });
});

describe('partiallyApproved', () => {
  it('converts the approved amount at the authorization rate, rounding half up', () => {
    expect(partiallyApproved({ amount: 1000, merchantAmount: 925 }, 500)).toEqual({ amount: 500, merchantAmount: 463 });
  });

  it('keeps the approved amount for a zero-amount authorization, which has no rate', () => {
    expect(partiallyApproved({ amount: 0, merchantAmount: 0 }, 300)).toEqual({ amount: 300, merchantAmount: 300 });
  });
});

describe('decideAuthorizationAndTransaction', () => {
  it('records the decision on the card and opens the transaction with the same facts', () => {
    expect(decideAuthorizationAndTransaction(authorize, card(), noTransaction, now)).toEqual({ card: [cardApproved], transaction: [transactionAuthorized], counted: [] });
  });

  it('opens a declined transaction for a declined decision', () => {
    const decided = decideAuthorizationAndTransaction({ ...authorize, checks: passingChecks({ cvvMatches: false }) }, card(), noTransaction, now);
    expect(decided.card).toEqual([{ type: 'CardAuthorizationDeclined', data: { ...facts(500), reason: 'INVALID_CARD_DETAILS' } }]);
    expect(decided.transaction).toEqual([{ type: 'TransactionAuthorized', data: { ...facts(500), result: 'INVALID_CARD_DETAILS' } }]);
  });

  describe('given ACCOUNT velocity limits that run on the card', () => {
    const limit = (authRuleToken: string, filters?: VelocityLimitParameters['filters']): AccountVelocityLimit => ({
      authRuleToken,
      version: 1,
      parameters: { scope: 'ACCOUNT', period: { type: 'DAY' }, limit_count: 10, ...(filters ? { filters } : {}) },
    });
    const counters = [
      { limit: limit('rule-restaurants', { include_mccs: [coffeeShop.mcc] }), usage: { counted: [] } },
      { limit: limit('rule-abroad', { exclude_countries: [coffeeShop.country] }), usage: { counted: [] } },
    ];
    const countedBy = (authRuleToken: string) => ({
      type: 'AuthRuleUsageCounted',
      data: { authRuleToken, version: 1, transactionToken, cardToken, amount: 500, at },
    });

    it('when the card approves, then each limit whose filters take the approval counts it, in the order given', () => {
      const decided = decideAuthorizationAndTransaction(authorize, card(), noTransaction, now, counters);
      expect(decided.counted).toEqual([[countedBy('rule-restaurants')], []]);
    });

    it('when the card declines, then no limit counts anything', () => {
      const decided = decideAuthorizationAndTransaction({ ...authorize, checks: passingChecks({ cvvMatches: false }) }, card(), noTransaction, now, counters);
      expect(decided.counted).toEqual([[], []]);
    });

    it('when the approval is partial, then the limits count the amount approved', () => {
      const partial = { ...authorize, facts: { ...requested, ...partiallyApproved(requested, 200) } };
      const decided = decideAuthorizationAndTransaction(partial, card(), noTransaction, now, counters);
      expect(decided.counted[0]).toEqual([{ type: 'AuthRuleUsageCounted', data: { ...countedBy('rule-restaurants').data, amount: 200 } }]);
    });
  });

  it("refuses another program's card", () => {
    expect(() => decideAuthorizationAndTransaction({ ...authorize, facts: { ...requested, programToken: otherProgramToken } }, card(), noTransaction, now)).toThrow(CardNotFound);
  });

  it('cardWouldApprove answers what the decision would be', () => {
    expect(cardWouldApprove(authorize, card(), now)).toBe(true);
    expect(cardWouldApprove({ ...authorize, checks: passingChecks({ fundingState: 'DELETED' }) }, card(), now)).toBe(false);
  });
});

describe('decideTransactionMovement: the transaction moves and its card counts the new amount', () => {
  const movement = (type: 'VoidAuthorization' | 'ClearAuthorization' | 'AdviseAuthorization', amount?: number): TransactionMovement =>
    ({ type, transactionToken, programToken, eventToken: 'evt-move', amount }) as TransactionMovement;

  it.each([
    ['VoidAuthorization', 200, 'VOID', 300],
    ['ClearAuthorization', 450, 'CLEARING', 450],
    ['AdviseAuthorization', 800, 'ADVICE', 800],
  ] as const)('%s of %i: the card counts %s with the amount the transaction now has', (type, amount, cause, after) => {
    const decided = decideTransactionMovement(movement(type, amount), pendingTransaction, 0, card([cardApproved]), now);
    expect(decided.transaction).toHaveLength(1);
    expect(decided.card).toEqual([{ type: 'CardSpendAdjusted', data: { cardToken, transactionToken, transactionVersion: 1, cause, amount: after } }]);
    const moved = foldEvents(transactionDecider, [transactionAuthorized, ...decided.transaction]);
    const counted = foldEvents(cardDecider, [cardCreated(), cardApproved, ...decided.card]) as IssuedCard;
    expect(moved.status !== 'ABSENT' && counted.spend.get(transactionToken)?.amount).toBe(moved.status !== 'ABSENT' && moved.amount);
  });

  it('an expiry releases the whole hold: the transaction is EXPIRED and the card counts 0 for it (EXPIRY)', () => {
    const partlyVoided = foldEvents(transactionDecider, [transactionAuthorized, { type: 'TransactionVoided', data: { transactionToken, eventToken: 'evt-void', amount: 200, at } }]);
    const afterVoid = card([cardApproved, { type: 'CardSpendAdjusted', data: { cardToken, transactionToken, transactionVersion: 1, cause: 'VOID', amount: 300 } }]);
    const decided = decideTransactionMovement({ type: 'ExpireAuthorization', transactionToken, programToken, eventToken: 'evt-expiry' }, partlyVoided, 1, afterVoid, now);
    expect(decided.transaction).toEqual([{ type: 'TransactionExpired', data: { transactionToken, eventToken: 'evt-expiry', amount: 300, at } }]);
    expect(decided.card).toEqual([{ type: 'CardSpendAdjusted', data: { cardToken, transactionToken, transactionVersion: 2, cause: 'EXPIRY', amount: 0 } }]);
  });

  it('an expiry of a transaction that is no longer pending writes nothing on either stream', () => {
    const cleared = foldEvents(transactionDecider, [transactionAuthorized, { type: 'TransactionCleared', data: { transactionToken, eventToken: 'evt-clearing', amount: 500, at } }]);
    const expiry: TransactionMovement = { type: 'ExpireAuthorization', transactionToken, programToken, eventToken: 'evt-expiry' };
    expect(() => decideTransactionMovement(expiry, cleared, 1, card([cardApproved]), now)).toThrow(TransactionStateConflict);
    expect(() => decideTransactionMovement({ ...expiry, programToken: otherProgramToken }, pendingTransaction, 0, card([cardApproved]), now)).toThrow(TransactionNotFound);
  });

  it('a return reversal takes the credit back: the card counts 0', () => {
    const returned: TransactionEvent = { type: 'TransactionReturned', data: facts(300) };
    const credited: CardEvent = { type: 'CardReturnCredited', data: { cardToken, transactionToken, eventToken: 'evt-authorization', amount: 300, at } };
    const decided = decideTransactionMovement({ type: 'ReverseReturn', transactionToken, programToken, eventToken: 'evt-reversal' }, foldEvents(transactionDecider, [returned]), 0, card([credited]), now);
    expect(decided.card).toEqual([{ type: 'CardSpendAdjusted', data: { cardToken, transactionToken, transactionVersion: 1, cause: 'RETURN_REVERSAL', amount: 0 } }]);
  });

  it('writes nothing on either stream when the transaction refuses', () => {
    const voided = foldEvents(transactionDecider, [transactionAuthorized, { type: 'TransactionVoided', data: { transactionToken, eventToken: 'evt-void', amount: 500, at } }]);
    expect(() => decideTransactionMovement(movement('VoidAuthorization'), voided, 1, card([cardApproved]), now)).toThrow(TransactionStateConflict);
    expect(() => decideTransactionMovement(movement('VoidAuthorization', 600), pendingTransaction, 0, card([cardApproved]), now)).toThrow(AmountAboveAvailable);
    expect(() => decideTransactionMovement(movement('VoidAuthorization'), noTransaction, -1, card(), now)).toThrow(TransactionNotFound);
  });

  it('refuses a movement whose event token was withdrawn, however late it comes', () => {
    const withdrawn = foldEvents(transactionDecider, [
      transactionAuthorized,
      { type: 'EventTokenWithdrawn', data: { transactionToken, programToken, eventToken: 'evt-move', at } },
    ]);
    expect(() => decideTransactionMovement(movement('ClearAuthorization'), withdrawn, 1, card([cardApproved]), now)).toThrow(TransactionEventTokenWithdrawn);
  });

  it('withdrawing an event token that already stands records nothing', () => {
    const voided = foldEvents(transactionDecider, [transactionAuthorized, { type: 'TransactionVoided', data: { transactionToken, eventToken: 'evt-move', amount: 100, at } }]);
    expect(transactionDecider.decide({ type: 'WithdrawEventToken', transactionToken, programToken, eventToken: 'evt-move' }, voided, { now })).toEqual([]);
    expect(transactionDecider.decide({ type: 'WithdrawEventToken', transactionToken, programToken, eventToken: 'evt-other' }, voided, { now })).toEqual([
      { type: 'EventTokenWithdrawn', data: { transactionToken, programToken, eventToken: 'evt-other', at } },
    ]);
  });
});

describe('decideReturn: a return opens its transaction and credits its card', () => {
  const { at: _a, fundingToken: _f, ...presented } = facts(300);

  it('opens a SETTLING return with the card funding source and credits the card the same amount', () => {
    const decided = decideReturn(presented, card(), noTransaction, now);
    expect(decided).toEqual({
      transaction: [{ type: 'TransactionReturned', data: facts(300) }],
      card: [{ type: 'CardReturnCredited', data: { cardToken, transactionToken, eventToken: 'evt-authorization', amount: 300, at } }],
    });
  });

  it('takes a return on a closed card', () => {
    const closed = card([{ type: 'CardClosed', data: { cardToken, reason: 'REQUESTED' } }]);
    expect(decideReturn(presented, closed, noTransaction, now).card).toHaveLength(1);
  });

  it("refuses another program's card", () => {
    expect(() => decideReturn({ ...presented, programToken: otherProgramToken }, card(), noTransaction, now)).toThrow(CardNotFound);
  });
});

describe("Lithic's credits take the return's way: money back, never declined", () => {
  const { at: _a, fundingToken: _f, ...presented } = facts(300);
  const spentOn = (cardState: IssuedCard) => cardState.spend.get(transactionToken)?.amount;

  it('a financial credit authorization gives the spend back at once, as a return', () => {
    const decided = decideReturn({ ...presented, kind: 'FINANCIAL_CREDIT_AUTHORIZATION' }, card(), noTransaction, now);
    expect(decided.card).toEqual([{ type: 'CardReturnCredited', data: { cardToken, transactionToken, eventToken: 'evt-authorization', amount: 300, at } }]);
    expect(spentOn(foldEvents(cardDecider, [cardCreated(), ...decided.card]) as IssuedCard)).toBe(-300);
  });

  it.each(['CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE'] as const)('a %s gives nothing back until its clearing, which gives back the cleared amount', (kind) => {
    const decided = decideReturn({ ...presented, kind }, card(), noTransaction, now);
    expect(decided.card).toEqual([{ type: 'CardReturnCredited', data: { cardToken, transactionToken, eventToken: 'evt-authorization', amount: 0, at } }]);
    const credited = foldEvents(cardDecider, [cardCreated(), ...decided.card]) as IssuedCard;
    // Counted as nothing (the fold negates the credited 0, so the entry is -0).
    expect(spentOn(credited)).toBeCloseTo(0);

    const pendingCredit = foldEvents(transactionDecider, decided.transaction);
    const clearing = decideTransactionMovement({ type: 'ClearAuthorization', transactionToken, programToken, eventToken: 'evt-clearing' }, pendingCredit, 0, credited, now);
    expect(clearing.card).toEqual([{ type: 'CardSpendAdjusted', data: { cardToken, transactionToken, transactionVersion: 1, cause: 'CLEARING', amount: -300 } }]);
    expect(spentOn(foldEvents(cardDecider, [cardCreated(), ...decided.card, ...clearing.card]) as IssuedCard)).toBe(-300);
  });
});

describe('decideAuthorizationAndTransaction for the debit kinds', () => {
  const singleUse = (): IssuedCard => foldEvents(cardDecider, [cardCreated({ cardType: 'SINGLE_USE' })]) as IssuedCard;

  it('a balance inquiry is recorded, spends nothing and leaves a single-use card open', () => {
    const inquiry = { ...authorize, facts: { ...requested, amount: 0, merchantAmount: 0, kind: 'BALANCE_INQUIRY' as const } };
    const decided = decideAuthorizationAndTransaction(inquiry, singleUse(), noTransaction, now);
    expect(decided.card.map((event) => event.type)).toEqual(['CardAuthorizationApproved']);
    expect(decided.transaction).toEqual([{ type: 'TransactionAuthorized', data: { ...facts(0), merchantAmount: 0, kind: 'BALANCE_INQUIRY', result: 'APPROVED' } }]);
  });

  it('a financial authorization counts against the limit as a purchase does, and is cleared at once', () => {
    const financial = { ...authorize, facts: { ...requested, kind: 'FINANCIAL_AUTHORIZATION' as const } };
    const decided = decideAuthorizationAndTransaction(financial, singleUse(), noTransaction, now);
    expect(decided.card.map((event) => event.type)).toEqual(['CardAuthorizationApproved', 'CardClosed']);
    expect(foldEvents(transactionDecider, decided.transaction)).toMatchObject({ status: 'SETTLING', settledAmount: 500 });
  });
});

describe('decideSettlement: the funding source as the program has it now decides', () => {
  const settling = foldEvents(transactionDecider, [transactionAuthorized, { type: 'TransactionCleared', data: { transactionToken, eventToken: 'evt-clearing', amount: 500, at } }]);

  it('settles with an ENABLED funding source', () => {
    expect(decideSettlement(transactionToken, settling, program(), now)).toEqual([{ type: 'TransactionSettled', data: { transactionToken, at } }]);
  });

  it('bounces when the program no longer has the funding source (DELETED)', () => {
    const elsewhere = foldEvents(transactionDecider, [
      { type: 'TransactionAuthorized', data: { ...facts(500), fundingToken: 'gone', result: 'APPROVED' } },
      { type: 'TransactionCleared', data: { transactionToken, eventToken: 'evt-clearing', amount: 500, at } },
    ]);
    expect(decideSettlement(transactionToken, elsewhere, program(), now)).toEqual([{ type: 'TransactionBounced', data: { transactionToken, at, fundingState: 'DELETED' } }]);
  });

  it('refuses a transaction that is not there before looking at any funding', () => {
    expect(() => decideSettlement(transactionToken, noTransaction, program(), now)).toThrow(TransactionNotFound);
  });
});
