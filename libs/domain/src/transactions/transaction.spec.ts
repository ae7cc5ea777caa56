import { deciderSpecification } from '@ledger/test-support';
import type { AuthorizationFacts } from '../cards/card-state';
import type { FundingSourceState } from '../programs/program';
import { foldEvents } from '../core/decider';
import {
  AdviseAuthorization,
  ClearAuthorization,
  ExistingTransaction,
  ExpireAuthorization,
  RecordAuthorization,
  RecordReturn,
  ReverseReturn,
  SettleTransaction,
  transactionDecider,
  WithdrawAuthorization,
  TransactionEvent,
  VoidAuthorization,
} from './transaction';
import { AmountAboveAvailable, ExpiryAmountNotPending, LocalAmountOutOfRange, TransactionNotFound, TransactionStateConflict } from './transaction-errors';
import type { TransactionResult } from './transaction-values';
import { cardToken, coffeeShop, fundingToken, now, otherProgramToken, programToken } from '../../test/fixtures';

// ---------------------------------------------------------------- fixtures

const decidedAt = now.toISOString();
const authorizedAt = '2026-11-22T09:00:00.000Z';
const spec = deciderSpecification(transactionDecider, { now });

const transactionToken = 'a7d1b8e2-3c4f-4a5b-9c6d-7e8f9a0b1c2d';
const merchant = coffeeShop;

/** 1000 cents authorized, 920 in the merchant's currency: a rate of 0.92. */
const facts = (overrides: Partial<AuthorizationFacts> = {}): AuthorizationFacts => ({
  cardToken,
  programToken,
  transactionToken,
  eventToken: 'evt-authorization',
  amount: 1000,
  merchant,
  merchantAmount: 920,
  merchantCurrency: 'EUR',
  authorizationCode: '123456',
  fundingToken,
  at: authorizedAt,
  ...overrides,
});

// ---------------------------------------------------------------- events

const withdrawn: TransactionEvent = { type: 'AuthorizationWithdrawn', data: { transactionToken, programToken, at: decidedAt } };

const authorized = (result: TransactionResult = 'APPROVED', overrides: Partial<AuthorizationFacts> = {}): TransactionEvent => ({
  type: 'TransactionAuthorized',
  data: { ...facts(overrides), result },
});
const advised = (amount: number, eventToken = 'evt-advice', at = decidedAt): TransactionEvent => ({
  type: 'TransactionAdvised',
  data: { transactionToken, eventToken, amount, at },
});
const voided = (amount: number, eventToken = 'evt-void', at = decidedAt): TransactionEvent => ({
  type: 'TransactionVoided',
  data: { transactionToken, eventToken, amount, at },
});
const expired = (amount: number, eventToken = 'evt-expiry', at = decidedAt): TransactionEvent => ({
  type: 'TransactionExpired',
  data: { transactionToken, eventToken, amount, at },
});
const cleared = (amount: number, eventToken = 'evt-clearing', at = decidedAt): TransactionEvent => ({
  type: 'TransactionCleared',
  data: { transactionToken, eventToken, amount, at },
});
const returned = (overrides: Partial<AuthorizationFacts> = {}): TransactionEvent => ({
  type: 'TransactionReturned',
  data: facts({ eventToken: 'evt-return', ...overrides }),
});
const returnReversed = (amount: number, eventToken = 'evt-return-reversal', at = decidedAt): TransactionEvent => ({
  type: 'TransactionReturnReversed',
  data: { transactionToken, eventToken, amount, at },
});
const settled = (at = decidedAt): TransactionEvent => ({ type: 'TransactionSettled', data: { transactionToken, at } });
const bounced = (fundingState: FundingSourceState, at = decidedAt): TransactionEvent => ({ type: 'TransactionBounced', data: { transactionToken, at, fundingState } });

// ---------------------------------------------------------------- commands

const record = (result: TransactionResult = 'APPROVED'): RecordAuthorization => ({ type: 'RecordAuthorization', facts: facts(), result });
const advise = (amount: number, overrides: Partial<AdviseAuthorization> = {}): AdviseAuthorization => ({
  type: 'AdviseAuthorization',
  transactionToken,
  programToken,
  eventToken: 'evt-advice',
  amount,
  ...overrides,
});
const voidAuthorization = (amount: number | undefined, overrides: Partial<VoidAuthorization> = {}): VoidAuthorization => ({
  type: 'VoidAuthorization',
  transactionToken,
  programToken,
  eventToken: 'evt-void',
  amount,
  ...overrides,
});
const expire = (amount: number | undefined = undefined, overrides: Partial<ExpireAuthorization> = {}): ExpireAuthorization => ({
  type: 'ExpireAuthorization',
  transactionToken,
  programToken,
  eventToken: 'evt-expiry',
  amount,
  ...overrides,
});
const clear = (amount: number | undefined, overrides: Partial<ClearAuthorization> = {}): ClearAuthorization => ({
  type: 'ClearAuthorization',
  transactionToken,
  programToken,
  eventToken: 'evt-clearing',
  amount,
  ...overrides,
});
const recordReturn = (overrides: Partial<AuthorizationFacts> = {}): RecordReturn => ({
  type: 'RecordReturn',
  facts: facts({ eventToken: 'evt-return', ...overrides }),
});
const reverseReturn = (overrides: Partial<ReverseReturn> = {}): ReverseReturn => ({
  type: 'ReverseReturn',
  transactionToken,
  programToken,
  eventToken: 'evt-return-reversal',
  ...overrides,
});
const settle = (fundingState: FundingSourceState = 'ENABLED', overrides: Partial<SettleTransaction> = {}): SettleTransaction => ({
  type: 'SettleTransaction',
  transactionToken,
  programToken,
  fundingState,
  ...overrides,
});

const stateAfter = (events: readonly TransactionEvent[]): ExistingTransaction => {
  const state = foldEvents(transactionDecider, events);
  if (state.status === 'ABSENT') throw new Error('expected an existing transaction');
  return state;
};

/** A history that leaves the transaction in each status the pending-only moves must refuse. */
const notPending: ReadonlyArray<readonly [string, readonly TransactionEvent[]]> = [
  ['VOIDED', [authorized(), voided(1000)]],
  ['EXPIRED', [authorized(), expired(1000)]],
  ['SETTLING', [authorized(), cleared(1000)]],
  ['SETTLED', [authorized(), cleared(1000), settled()]],
  ['BOUNCED', [authorized(), cleared(1000), bounced('DISCONNECTED')]],
  ['DECLINED', [authorized('CARD_PAUSED')]],
];

// ---------------------------------------------------------------- specs

describe('transaction aggregate', () => {
  describe('record authorization', () => {
    it('records the card’s approval', () => {
      spec.given([]).when(record('APPROVED')).then([authorized('APPROVED')]);
    });

    it('records the card’s decline with its reason', () => {
      spec.given([]).when(record('USER_TRANSACTION_LIMIT')).then([authorized('USER_TRANSACTION_LIMIT')]);
    });

    it('records nothing the second time (the repair process may record it again)', () => {
      spec.given([authorized()]).when(record('APPROVED')).then([]);
    });

    it('records nothing under a withdrawn token: its decision was refused', () => {
      spec.given([withdrawn]).when(record('APPROVED')).then([]);
    });
  });

  describe('withdraw authorization (after the caller was answered a 5xx)', () => {
    const withdraw: WithdrawAuthorization = { type: 'WithdrawAuthorization', transactionToken, programToken };

    it('takes a token nothing stands under', () => {
      spec.given([]).when(withdraw).then([withdrawn]);
    });

    it('leaves a standing decision alone, approved or declined', () => {
      spec.given([authorized()]).when(withdraw).then([]);
      spec.given([authorized('CARD_PAUSED')]).when(withdraw).then([]);
    });

    it('withdraws once: a retry whose first answer was lost finds its own withdrawal', () => {
      spec.given([withdrawn]).when(withdraw).then([]);
    });

    it('leaves no transaction under the token', () => {
      expect(foldEvents(transactionDecider, [withdrawn])).toEqual({ status: 'ABSENT', withdrawn: true });
    });

    it('makes an approved authorization PENDING with amount = authorization_amount, nothing settled yet', () => {
      expect(stateAfter([authorized()])).toEqual({
        status: 'PENDING',
        transactionToken,
        cardToken,
        programToken,
        fundingToken,
        merchant,
        merchantCurrency: 'EUR',
        authorizationCode: '123456',
        result: 'APPROVED',
        amount: 1000,
        authorizationAmount: 1000,
        settledAmount: 0,
        merchantAmount: 920,
        merchantAuthorizationAmount: 920,
        rate: { amount: 1000, merchantAmount: 920 },
        created: authorizedAt,
        events: [{ token: 'evt-authorization', type: 'AUTHORIZATION', amount: 1000, result: 'APPROVED', created: authorizedAt }],
      });
    });

    it('makes a declined authorization DECLINED, with the reason as result of both the transaction and its event', () => {
      const state = stateAfter([authorized('CARD_PAUSED')]);
      expect(state).toMatchObject({ status: 'DECLINED', result: 'CARD_PAUSED', settledAmount: 0 });
      expect(state.events).toEqual([{ token: 'evt-authorization', type: 'AUTHORIZATION', amount: 1000, result: 'CARD_PAUSED', created: authorizedAt }]);
    });
  });

  describe('authorization advice', () => {
    it('records an advice on a PENDING authorization', () => {
      spec.given([authorized()]).when(advise(1500)).then([advised(1500)]);
    });

    it('moves amount and authorization_amount to the advised amount and keeps the transaction PENDING', () => {
      expect(stateAfter([authorized(), advised(1500)])).toMatchObject({ status: 'PENDING', amount: 1500, authorizationAmount: 1500, settledAmount: 0 });
    });

    it('scales the merchant amounts at the authorization’s rate', () => {
      expect(stateAfter([authorized(), advised(1500)])).toMatchObject({ merchantAmount: 1380, merchantAuthorizationAmount: 1380 });
      expect(stateAfter([authorized(), advised(500)])).toMatchObject({ merchantAmount: 460, merchantAuthorizationAmount: 460 });
    });

    it('keeps converting at the authorization’s rate after an advice that rounded the merchant amount', () => {
      // 300 cents are 100 local units (1/3); an advice of 1 cent rounds to 0 local units.
      const history = [authorized('APPROVED', { amount: 300, merchantAmount: 100 }), advised(1, 'evt-advice-1'), advised(300, 'evt-advice-2')];
      expect(stateAfter(history)).toMatchObject({ amount: 300, merchantAmount: 100, merchantAuthorizationAmount: 100 });
    });

    it('keeps converting at the authorization’s rate after an advice down to 0', () => {
      const history = [authorized(), advised(0, 'evt-advice-1'), advised(2000, 'evt-advice-2')];
      expect(stateAfter(history)).toMatchObject({ amount: 2000, merchantAmount: 1840, merchantAuthorizationAmount: 1840 });
    });

    it('adds an AUTHORIZATION_ADVICE entry with the advised amount', () => {
      expect(stateAfter([authorized(), advised(1500)]).events[1]).toEqual({
        token: 'evt-advice',
        type: 'AUTHORIZATION_ADVICE',
        amount: 1500,
        result: 'APPROVED',
        created: decidedAt,
      });
    });
  });

  describe('void', () => {
    it('records a full void of a PENDING authorization', () => {
      spec.given([authorized()]).when(voidAuthorization(1000)).then([voided(1000)]);
    });

    it('makes a fully voided transaction VOIDED with amount 0', () => {
      expect(stateAfter([authorized(), voided(1000)])).toMatchObject({
        status: 'VOIDED',
        amount: 0,
        merchantAmount: 0,
        settledAmount: 0,
        authorizationAmount: 1000,
        merchantAuthorizationAmount: 920,
      });
    });

    it('keeps a partly voided transaction PENDING with the amount reduced', () => {
      expect(stateAfter([authorized(), voided(400)])).toMatchObject({
        status: 'PENDING',
        amount: 600,
        merchantAmount: 552,
        authorizationAmount: 1000,
        merchantAuthorizationAmount: 920,
      });
    });

    it('voids the rest of a partly voided authorization', () => {
      spec.given([authorized(), voided(400, 'evt-void-1')]).when(voidAuthorization(600, { eventToken: 'evt-void-2' })).then([voided(600, 'evt-void-2')]);
      expect(stateAfter([authorized(), voided(400, 'evt-void-1'), voided(600, 'evt-void-2')])).toMatchObject({ status: 'VOIDED', amount: 0 });
    });

    it('voids what an advice left pending', () => {
      spec.given([authorized(), advised(1500)]).when(voidAuthorization(1500)).then([voided(1500)]);
    });

    it('refuses to void more than the authorization holds', () => {
      spec.given([authorized()]).when(voidAuthorization(1001)).thenThrows(AmountAboveAvailable, 'amount 1001 is more than the 1000 cents still pending');
    });

    it('refuses to void more than is still pending after a partial void', () => {
      spec.given([authorized(), voided(400)]).when(voidAuthorization(601)).thenThrows(AmountAboveAvailable, 'more than the 600 cents still pending');
    });
  });

  describe('expiry (Lithic\'s AUTHORIZATION_EXPIRY): the hold runs out, whole', () => {
    const histories: ReadonlyArray<readonly [string, readonly TransactionEvent[], number]> = [
      ['an authorization', [authorized()], 1000],
      ['a partly voided authorization', [authorized(), voided(400)], 600],
      ['an advised authorization', [authorized(), advised(1500)], 1500],
    ];

    it.each(histories)('releases all that is pending of %s', (_, history, pendingAmount) => {
      spec.given(history).when(expire()).then([expired(pendingAmount)]);
    });

    it('accepts an amount only when it is exactly what is pending', () => {
      spec.given([authorized(), voided(400)]).when(expire(600)).then([expired(600)]);
      spec.given([authorized(), voided(400)]).when(expire(500)).thenThrows(ExpiryAmountNotPending, 'amount 500 is not the 600 cents pending; an authorization expires whole');
      spec.given([authorized()]).when(expire(1001)).thenThrows(ExpiryAmountNotPending);
    });

    it('makes the transaction EXPIRED with nothing pending, its authorized amounts kept', () => {
      expect(stateAfter([authorized(), voided(400), expired(600)])).toMatchObject({
        status: 'EXPIRED',
        amount: 0,
        merchantAmount: 0,
        settledAmount: 0,
        authorizationAmount: 1000,
        merchantAuthorizationAmount: 920,
      });
      expect(stateAfter([authorized(), expired(1000)]).events.map(({ type, amount }) => [type, amount])).toEqual([
        ['AUTHORIZATION', 1000],
        ['AUTHORIZATION_EXPIRY', 1000],
      ]);
    });

    it("refuses another program's transaction and an unknown token as not found", () => {
      spec.given([authorized()]).when(expire(undefined, { programToken: otherProgramToken })).thenThrows(TransactionNotFound);
      spec.given([]).when(expire()).thenThrows(TransactionNotFound);
    });
  });

  describe('void and clearing without an amount move the full pending amount (Lithic\'s default)', () => {
    const histories: ReadonlyArray<readonly [string, readonly TransactionEvent[], number]> = [
      ['an authorization', [authorized()], 1000],
      ['a partly voided authorization', [authorized(), voided(400)], 600],
      ['an advised authorization', [authorized(), advised(1500)], 1500],
      ['an authorization advised, then partly voided', [authorized(), advised(1500), voided(200)], 1300],
    ];

    it.each(histories)('voids all that is pending of %s', (_, history, pendingAmount) => {
      spec.given(history).when(voidAuthorization(undefined)).then([voided(pendingAmount)]);
      expect(stateAfter([...history, voided(pendingAmount)])).toMatchObject({ status: 'VOIDED', amount: 0 });
    });

    it.each(histories)('clears all that is pending of %s', (_, history, pendingAmount) => {
      spec.given(history).when(clear(undefined)).then([cleared(pendingAmount)]);
      expect(stateAfter([...history, cleared(pendingAmount)])).toMatchObject({ status: 'SETTLING', amount: pendingAmount, settledAmount: pendingAmount });
    });

    it.each(notPending)('still refuses both on a %s transaction', (_, history) => {
      spec.given(history).when(voidAuthorization(undefined)).thenThrows(TransactionStateConflict);
      spec.given(history).when(clear(undefined)).thenThrows(TransactionStateConflict);
    });
  });

  describe('clearing', () => {
    it('records a clearing of a PENDING authorization', () => {
      spec.given([authorized()]).when(clear(1000)).then([cleared(1000)]);
    });

    it('makes a clearing for less than authorized SETTLING with amount = settled_amount = cleared, authorization_amount unchanged', () => {
      expect(stateAfter([authorized(), cleared(800)])).toMatchObject({
        status: 'SETTLING',
        amount: 800,
        settledAmount: 800,
        authorizationAmount: 1000,
        merchantAmount: 736,
        merchantAuthorizationAmount: 920,
      });
    });

    it('makes a clearing for more than authorized SETTLING with amount = settled_amount = cleared, authorization_amount unchanged', () => {
      spec.given([authorized()]).when(clear(1200)).then([cleared(1200)]);
      expect(stateAfter([authorized(), cleared(1200)])).toMatchObject({
        status: 'SETTLING',
        amount: 1200,
        settledAmount: 1200,
        authorizationAmount: 1000,
        merchantAmount: 1104,
        merchantAuthorizationAmount: 920,
      });
    });

    it('clears a partly voided authorization', () => {
      expect(stateAfter([authorized(), voided(400), cleared(600)])).toMatchObject({ status: 'SETTLING', amount: 600, settledAmount: 600 });
    });
  });

  describe("Lithic's kinds of authorization: the first event has the kind's name", () => {
    it('a balance inquiry is complete at once and moves nothing (SETTLED, amount 0)', () => {
      const inquiry = authorized('APPROVED', { amount: 0, merchantAmount: 0, kind: 'BALANCE_INQUIRY' });
      expect(stateAfter([inquiry])).toMatchObject({ status: 'SETTLED', amount: 0, settledAmount: 0 });
      expect(stateAfter([inquiry]).events.map(({ type }) => type)).toEqual(['BALANCE_INQUIRY']);
      spec.given([inquiry]).when(clear(undefined)).thenThrows(TransactionStateConflict, 'is SETTLED');
    });

    it('a financial authorization is cleared as it is approved (SETTLING, settled at its amount); declined, it is DECLINED', () => {
      const financial = authorized('APPROVED', { kind: 'FINANCIAL_AUTHORIZATION' });
      expect(stateAfter([financial])).toMatchObject({ status: 'SETTLING', amount: 1000, settledAmount: 1000, authorizationAmount: 1000 });
      expect(stateAfter([financial]).events.map(({ type }) => type)).toEqual(['FINANCIAL_AUTHORIZATION']);
      spec.given([financial]).when(voidAuthorization(undefined)).thenThrows(TransactionStateConflict, 'is SETTLING');
      expect(stateAfter([authorized('USER_TRANSACTION_LIMIT', { kind: 'FINANCIAL_AUTHORIZATION' })])).toMatchObject({ status: 'DECLINED', settledAmount: 0 });
    });

    it('a financial credit authorization is money back at once, as a return, and can be reversed as one', () => {
      const credit = returned({ kind: 'FINANCIAL_CREDIT_AUTHORIZATION' });
      expect(stateAfter([credit])).toMatchObject({ status: 'SETTLING', amount: -1000, settledAmount: -1000 });
      expect(stateAfter([credit]).events.map(({ type }) => type)).toEqual(['FINANCIAL_CREDIT_AUTHORIZATION']);
      spec.given([credit]).when(reverseReturn()).then([returnReversed(1000)]);
    });

    it.each(['CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE'] as const)('a %s is PENDING and negative until its clearing makes it money back', (kind) => {
      const credit = returned({ kind });
      expect(stateAfter([credit])).toMatchObject({ status: 'PENDING', amount: -1000, authorizationAmount: -1000, settledAmount: 0, merchantAmount: -920 });
      spec.given([credit]).when(clear(undefined)).then([cleared(1000)]);
      expect(stateAfter([credit, cleared(600)])).toMatchObject({ status: 'SETTLING', amount: -600, settledAmount: -600, merchantAmount: -552 });
      spec.given([credit, cleared(1000)]).when(reverseReturn()).then([returnReversed(1000)]);
    });

    it.each(['CREDIT_AUTHORIZATION', 'CREDIT_AUTHORIZATION_ADVICE'] as const)('refuses to void, expire or advise a pending %s (Lithic simulates none of them on credits)', (kind) => {
      const credit = returned({ kind });
      for (const command of [voidAuthorization(100), expire(), advise(500)]) {
        spec.given([credit]).when(command).thenThrows(TransactionStateConflict, 'needs a PENDING debit authorization, not a credit');
      }
    });
  });

  describe('local-currency amounts stay amounts', () => {
    const MAX = Number.MAX_SAFE_INTEGER;
    // 1 cent authorized as the largest merchant amount: any larger advice or clearing would convert past 2^53.
    const extremeRate = authorized('APPROVED', { amount: 1, merchantAmount: MAX });

    it('refuses an advice or a clearing whose merchant amount would pass 2^53 - 1, naming amount', () => {
      spec.given([extremeRate]).when(advise(2)).thenThrows(LocalAmountOutOfRange, /^amount 2 comes to 18014398509481982 in the merchant currency/);
      spec.given([extremeRate]).when(clear(MAX)).thenThrows(LocalAmountOutOfRange, 'amount 9007199254740991 comes to');
    });

    it('accepts the largest amount that still converts, at the exact rate', () => {
      spec.given([extremeRate]).when(clear(1)).then([cleared(1)]);
      expect(stateAfter([extremeRate, cleared(1)])).toMatchObject({ amount: 1, merchantAmount: MAX });
    });

    it('converts exactly where the product of amount and rate is past 2^53', () => {
      // In doubles, 30508203087422 x 705719 / 28724 rounds the product first and comes out one cent high.
      const rate = authorized('APPROVED', { amount: 28724, merchantAmount: 705719 });
      expect(stateAfter([rate, cleared(30508203087422)]).merchantAmount).toBe(749555026272537);
    });
  });

  describe('moves only a PENDING authorization may make', () => {
    describe.each(notPending)('on a %s transaction', (status, history) => {
      it('refuses an advice', () => {
        spec.given(history).when(advise(1500)).thenThrows(TransactionStateConflict, `is ${status}; an authorization advice needs a PENDING authorization`);
      });

      it('refuses a void', () => {
        spec.given(history).when(voidAuthorization(1)).thenThrows(TransactionStateConflict, `is ${status}; a void needs a PENDING authorization`);
      });

      it('refuses a clearing', () => {
        spec.given(history).when(clear(1000)).thenThrows(TransactionStateConflict, `is ${status}; a clearing needs a PENDING authorization`);
      });

      it('refuses an expiry', () => {
        spec.given(history).when(expire()).thenThrows(TransactionStateConflict, `is ${status}; an expiry needs a PENDING authorization`);
      });
    });

    it.each(['an advice', 'a void', 'a clearing'] as const)('refuses %s on a return, which is never PENDING', (move) => {
      const command = { 'an advice': advise(1), 'a void': voidAuthorization(1), 'a clearing': clear(1) }[move];
      spec.given([returned()]).when(command).thenThrows(TransactionStateConflict, 'is SETTLING');
    });

    it('reports a refused move as a conflict (409 at the edge)', () => {
      expect(() => transactionDecider.decide(clear(1000), stateAfter([authorized(), cleared(1000)]), { now })).toThrow(
        expect.objectContaining({ kind: 'conflict', field: 'token' }),
      );
    });
  });

  describe('return', () => {
    it('records a return', () => {
      spec.given([]).when(recordReturn()).then([returned()]);
    });

    it('records nothing for the same return twice', () => {
      spec.given([returned()]).when(recordReturn()).then([]);
    });

    it('makes a return SETTLING at once with negative amounts and nothing authorized', () => {
      expect(stateAfter([returned()])).toMatchObject({
        status: 'SETTLING',
        result: 'APPROVED',
        amount: -1000,
        settledAmount: -1000,
        authorizationAmount: 0,
        merchantAmount: -920,
        merchantAuthorizationAmount: 0,
        created: authorizedAt,
      });
    });

    it('lists a RETURN entry with a positive amount', () => {
      expect(stateAfter([returned()]).events).toEqual([{ token: 'evt-return', type: 'RETURN', amount: 1000, result: 'APPROVED', created: authorizedAt }]);
    });

    it('settles a return', () => {
      spec.given([returned()]).when(settle('ENABLED')).then([settled()]);
      expect(stateAfter([returned(), settled()])).toMatchObject({ status: 'SETTLED', amount: -1000, settledAmount: -1000 });
    });
  });

  describe('return reversal (Lithic\'s RETURN_REVERSAL)', () => {
    it.each([
      ['SETTLING', [returned()]],
      ['SETTLED', [returned(), settled()]],
    ] as const)('takes a whole %s return back, for the return\'s amount', (_, history) => {
      spec.given(history).when(reverseReturn()).then([returnReversed(1000)]);
    });

    it('makes the return VOIDED with every amount back to 0 and lists a RETURN_REVERSAL entry', () => {
      const state = stateAfter([returned(), settled(), returnReversed(1000)]);
      expect(state).toMatchObject({ status: 'VOIDED', amount: 0, settledAmount: 0, merchantAmount: 0, authorizationAmount: 0 });
      expect(state.events.map((entry) => [entry.type, entry.amount])).toEqual([
        ['RETURN', 1000],
        ['RETURN_REVERSAL', 1000],
      ]);
    });

    it.each([
      ['a reversed return (only once)', [returned(), returnReversed(1000)]],
      ['a bounced return (it never credited anything)', [returned(), bounced('DISCONNECTED')]],
    ] as const)('refuses %s as a conflict', (_, history) => {
      spec.given(history).when(reverseReturn()).thenThrows(TransactionStateConflict, /a return reversal needs a SETTLING or SETTLED return/);
    });

    const purchases: ReadonlyArray<readonly [string, readonly TransactionEvent[]]> = [['PENDING', [authorized()]], ...notPending];
    it.each(purchases)('refuses a purchase that is %s: only a return can be reversed', (_, history) => {
      spec.given(history).when(reverseReturn()).thenThrows(TransactionStateConflict);
    });

    it('answers not found for an unknown transaction or another program\'s return', () => {
      spec.given([]).when(reverseReturn()).thenThrows(TransactionNotFound);
      spec.given([returned()]).when(reverseReturn({ programToken: otherProgramToken })).thenThrows(TransactionNotFound);
    });
  });

  describe('settlement', () => {
    it('settles a SETTLING transaction whose funding source is ENABLED', () => {
      spec.given([authorized(), cleared(1000)]).when(settle('ENABLED')).then([settled()]);
    });

    // SOMETHING_NEW: a state from outside the types (a newer writer) bounces too.
    it.each(['PENDING', 'DISCONNECTED', 'INSUFFICIENT_FUNDS', 'DELETED', 'SOMETHING_NEW'] as FundingSourceState[])('bounces a SETTLING transaction whose funding source is %s', (fundingState) => {
      spec.given([authorized(), cleared(1000)]).when(settle(fundingState)).then([bounced(fundingState)]);
    });

    it('makes a settled transaction SETTLED and keeps its amounts', () => {
      expect(stateAfter([authorized(), cleared(800), settled()])).toMatchObject({ status: 'SETTLED', amount: 800, settledAmount: 800, authorizationAmount: 1000 });
    });

    it('makes a bounced transaction BOUNCED and keeps its amounts', () => {
      expect(stateAfter([authorized(), cleared(800), bounced('DISCONNECTED')])).toMatchObject({ status: 'BOUNCED', amount: 800, settledAmount: 800 });
    });

    it.each([
      ['PENDING', [authorized()]],
      ['VOIDED', [authorized(), voided(1000)]],
      ['SETTLED', [authorized(), cleared(1000), settled()]],
      ['BOUNCED', [authorized(), cleared(1000), bounced('DISCONNECTED')]],
      ['DECLINED', [authorized('CARD_PAUSED')]],
    ] as const)('refuses to settle a %s transaction', (status, history) => {
      spec.given(history).when(settle()).thenThrows(TransactionStateConflict, `is ${status}; settlement needs a SETTLING transaction`);
    });
  });

  describe('finding the transaction', () => {
    it.each([
      ['an advice', advise(1)],
      ['a void', voidAuthorization(1)],
      ['a clearing', clear(1)],
      ['a settlement', settle()],
    ] as const)('answers not found to %s of an unknown transaction', (_move, command) => {
      spec.given([]).when(command).thenThrows(TransactionNotFound, `Transaction ${transactionToken} not found`);
    });

    it.each([
      ['an advice', advise(1, { programToken: otherProgramToken })],
      ['a void', voidAuthorization(1, { programToken: otherProgramToken })],
      ['a clearing', clear(1, { programToken: otherProgramToken })],
      ['a settlement', settle('ENABLED', { programToken: otherProgramToken })],
    ] as const)('answers not found to %s of another program’s transaction', (_move, command) => {
      const history = command.type === 'SettleTransaction' ? [authorized(), cleared(1000)] : [authorized()];
      spec.given(history).when(command).thenThrows(TransactionNotFound);
    });
  });

  describe('the events list (spec 2.4)', () => {
    it('lists every amount-moving event in order, each amount positive, each APPROVED', () => {
      const history = [authorized(), advised(1200, 'evt-advice', '2026-11-22T09:05:00.000Z'), voided(200, 'evt-void', '2026-11-22T09:10:00.000Z'), cleared(1000, 'evt-clearing', '2026-11-22T09:20:00.000Z'), settled()];
      const state = stateAfter(history);
      expect(state.events).toEqual([
        { token: 'evt-authorization', type: 'AUTHORIZATION', amount: 1000, result: 'APPROVED', created: authorizedAt },
        { token: 'evt-advice', type: 'AUTHORIZATION_ADVICE', amount: 1200, result: 'APPROVED', created: '2026-11-22T09:05:00.000Z' },
        { token: 'evt-void', type: 'VOID', amount: 200, result: 'APPROVED', created: '2026-11-22T09:10:00.000Z' },
        { token: 'evt-clearing', type: 'CLEARING', amount: 1000, result: 'APPROVED', created: '2026-11-22T09:20:00.000Z' },
      ]);
      expect(state).toMatchObject({ status: 'SETTLED', amount: 1000, authorizationAmount: 1200, settledAmount: 1000, created: authorizedAt });
    });

    it('lists a full void as a VOID entry with the voided (positive) amount', () => {
      expect(stateAfter([authorized(), voided(1000)]).events.map(({ type, amount }) => ({ type, amount }))).toEqual([
        { type: 'AUTHORIZATION', amount: 1000 },
        { type: 'VOID', amount: 1000 },
      ]);
    });

    it('adds no entry for a settlement or a bounce', () => {
      expect(stateAfter([authorized(), cleared(1000), settled()]).events).toHaveLength(2);
      expect(stateAfter([authorized(), cleared(1000), bounced('DELETED')]).events).toHaveLength(2);
    });
  });

  describe('evolve', () => {
    it('ignores amount events for a transaction it has not seen', () => {
      expect(foldEvents(transactionDecider, [voided(100), cleared(100), settled()])).toEqual({ status: 'ABSENT' });
    });
  });
});
