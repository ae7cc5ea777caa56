import type { Merchant } from '../src/transactions/transaction-values';

/**
 * The ids and the instant the domain specs share: one program (and one that is not it), one card,
 * its funding source, one merchant, and the moment the deciders decide at.
 */
export const now = new Date('2026-11-22T10:15:30.000Z');

export const programToken = 'c2f1e3a4-5b6c-4d7e-8f90-a1b2c3d4e5f6';
export const otherProgramToken = '00000000-0000-4000-8000-000000000000';
export const cardToken = '7ef7d65c-9023-4da3-b113-3b8583fd7951';
export const fundingToken = 'ecbd1d58-0299-48b3-84da-6ed7f5bf9ec1';

export const coffeeShop: Merchant = { acceptorId: '174030075991', city: 'NEW YORK', country: 'USA', descriptor: 'COFFEE SHOP', mcc: '5812', state: 'NY' };
