import { deciderSpecification } from '@ledger/test-support';
import { foldEvents } from '../core/decider';
import { decideAuthorizationAndTransaction } from '../card-spend/authorize';
import { transactionDecider } from '../transactions/transaction';
import { detailedResultOf } from '../transactions/transaction-rule-results';
import { cardDecider } from './card';
import type { AuthorizeSpend } from './card-authorization';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { cardToken, coffeeShop, fundingToken, now, programToken } from '../../test/fixtures';

/**
 * A decline by one of Lithic's account limits records which one, so the transaction shows Lithic's
 * detailed result for it (ACCOUNT_DAILY_SPEND_LIMIT_EXCEEDED, ACCOUNT_LIFETIME_SPEND_LIMIT_EXCEEDED)
 * while its result stays the spec's; every other authorization is recorded as before.
 */

const spec = deciderSpecification(cardDecider, { now });
const created = cardCreated({ spendLimit: 0 });
const facts = { cardToken, programToken, transactionToken: 'tx-now', eventToken: 'ev-now', amount: 500, merchant: coffeeShop, merchantAmount: 500, merchantCurrency: 'USD', authorizationCode: '123456' };
const recorded = { ...facts, fundingToken, at: now.toISOString() };
const authorize = (checks: AuthorizeSpend['checks']): AuthorizeSpend => ({ type: 'AuthorizeSpend', facts, checks });

describe("declines by Lithic's account limits", () => {
  it('given the daily limit declines, then the decline records DAILY beside its GLOBAL_WEEKLY_LIMIT', () => {
    spec
      .given([created])
      .when(authorize(passingChecks({ globalLimitExceeded: 'GLOBAL_WEEKLY_LIMIT', accountLimitExceeded: 'DAILY' })))
      .then([{ type: 'CardAuthorizationDeclined', data: { ...recorded, accountLimit: 'DAILY', reason: 'GLOBAL_WEEKLY_LIMIT' } }]);
  });

  it('given the weekly limit declines, then nothing more is recorded', () => {
    spec
      .given([created])
      .when(authorize(passingChecks({ globalLimitExceeded: 'GLOBAL_WEEKLY_LIMIT' })))
      .then([{ type: 'CardAuthorizationDeclined', data: { ...recorded, reason: 'GLOBAL_WEEKLY_LIMIT' } }]);
  });

  it('given an earlier check declines first, then the account limit is not recorded', () => {
    spec
      .given([created])
      .when(authorize(passingChecks({ programState: 'PAUSED', globalLimitExceeded: 'GLOBAL_MONTHLY_LIMIT', accountLimitExceeded: 'LIFETIME' })))
      .then([{ type: 'CardAuthorizationDeclined', data: { ...recorded, reason: 'INACTIVE_ACCOUNT' } }]);
  });

  it.each([
    ['DAILY', 'GLOBAL_WEEKLY_LIMIT', 'ACCOUNT_DAILY_SPEND_LIMIT_EXCEEDED'],
    ['LIFETIME', 'GLOBAL_MONTHLY_LIMIT', 'ACCOUNT_LIFETIME_SPEND_LIMIT_EXCEEDED'],
  ] as const)("given a %s decline, then the transaction's result is %s and its detailed result %s", (accountLimit, result, detailed) => {
    const card = foldEvents(cardDecider, [created]);
    const decided = decideAuthorizationAndTransaction(authorize(passingChecks({ globalLimitExceeded: result, accountLimitExceeded: accountLimit })), card, transactionDecider.initialState(), now);
    const transaction = foldEvents(transactionDecider, decided.transaction);
    if (transaction.status === 'ABSENT') throw new Error('expected a transaction');
    expect(transaction.result).toBe(result);
    expect(detailedResultOf(transaction.events[0])).toBe(detailed);
  });

  it("given a weekly decline, then the detailed result is the spec result's own", () => {
    const card = foldEvents(cardDecider, [created]);
    const decided = decideAuthorizationAndTransaction(authorize(passingChecks({ globalLimitExceeded: 'GLOBAL_MONTHLY_LIMIT' })), card, transactionDecider.initialState(), now);
    const transaction = foldEvents(transactionDecider, decided.transaction);
    if (transaction.status === 'ABSENT') throw new Error('expected a transaction');
    expect(transaction.events[0]).not.toHaveProperty('accountLimit');
    expect(detailedResultOf(transaction.events[0])).toBe('ACCOUNT_MONTHLY_SPEND_LIMIT_EXCEEDED');
  });
});
