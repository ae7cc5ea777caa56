import type { AuthorizationChecks } from '../src/cards/card-authorization';
import type { CardCreated } from '../src/cards/card-state';
import type { Merchant } from '../src/transactions/transaction-values';

/**
 * What the card specs (the decider's given/when/then, the property test, the program clock's) build
 * their cards from: one program, one card and its funding source, and checks that let anything pass.
 */
export const programToken = 'c2f1e3a4-5b6c-4d7e-8f90-a1b2c3d4e5f6';
export const cardToken = '7ef7d65c-9023-4da3-b113-3b8583fd7951';
export const fundingToken = 'ecbd1d58-0299-48b3-84da-6ed7f5bf9ec1';

export const coffeeShop: Merchant = { acceptorId: '174030075991', city: 'NEW YORK', country: 'USA', descriptor: 'COFFEE SHOP', mcc: '5812', state: 'NY' };

/** An OPEN DIGITAL_WALLET card without a PIN, limited to 1000 cents a TRANSACTION, valid until 11/2029. */
export function cardCreated(overrides: Partial<CardCreated['data']> = {}): CardCreated {
  return {
    type: 'CardCreated',
    data: {
      cardToken,
      programToken,
      cardType: 'DIGITAL_WALLET',
      state: 'OPEN',
      memo: '',
      spendLimit: 1000,
      spendLimitDuration: 'TRANSACTION',
      fundingToken,
      expMonth: '11',
      expYear: '2029',
      lastFour: '1111',
      panHash: 'hash-of-pan',
      panEncrypted: 'v1:cipher',
      pinHash: null,
      created: '2026-01-01T00:00:00.000Z',
      ...overrides,
    },
  };
}

/** Checks of an authorization with nothing to refuse it: an active program, no rules set, ENABLED funding. */
export function passingChecks(overrides: Partial<AuthorizationChecks> = {}): AuthorizationChecks {
  return {
    programState: 'ACTIVE',
    merchantBlocked: false,
    velocity: null,
    globalLimitExceeded: null,
    fundingState: 'ENABLED',
    cvvMatches: null,
    expiryMatches: null,
    presentedPinHash: null,
    streamDecline: null,
    ...overrides,
  };
}
