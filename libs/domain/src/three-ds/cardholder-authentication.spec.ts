import { cardToken, coffeeShop, fundingToken, now, programToken } from '../../test/fixtures';
import { transactionDecider, type TransactionEvent } from '../transactions/transaction';
import type { CardholderAuthentication } from './cardholder-authentication';

const transactionToken = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
const authorized = (extra: { cardholderAuthentication?: CardholderAuthentication }): TransactionEvent => ({
  type: 'TransactionAuthorized',
  data: {
    cardToken,
    programToken,
    transactionToken,
    eventToken: '7b8c9d0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e',
    amount: 1_250,
    merchant: coffeeShop,
    merchantAmount: 1_250,
    merchantCurrency: 'USD',
    authorizationCode: '123456',
    fundingToken,
    at: now.toISOString(),
    result: 'APPROVED',
    ...extra,
  },
});

const firstEntry = (event: TransactionEvent) => {
  const transaction = transactionDecider.evolve(transactionDecider.initialState(), event);
  if (transaction.status === 'ABSENT') throw new Error('no transaction');
  return transaction.events[0];
};

describe("a transaction's cardholder authentication", () => {
  const cardholderAuthentication: CardholderAuthentication = {
    threeDSAuthenticationToken: '3d5a1c2e-7b4f-4e8a-9c0d-1f2e3a4b5c6d',
    method: 'CHALLENGE',
    result: 'SUCCESS',
    decisionMadeBy: 'LITHIC_DEFAULT',
    liabilityShift: '3DS_AUTHENTICATED',
  };

  it('is on the authorization event of the transaction when the authorization carried one', () => {
    expect(firstEntry(authorized({ cardholderAuthentication }))).toMatchObject({ type: 'AUTHORIZATION', cardholderAuthentication });
  });

  it('is absent, not null, when the authorization named none: such a transaction is written as before', () => {
    expect(Object.keys(firstEntry(authorized({})))).toEqual(['token', 'type', 'amount', 'result', 'created']);
  });
});
