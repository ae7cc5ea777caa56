import { ExpireAuthorizationCommand } from '@ledger/contracts';
import {
  cardStreamId,
  ExpiryAmountNotPending,
  programStreamId,
  TransactionEventTokenWithdrawn,
  TransactionNotFound,
  TransactionStateConflict,
  transactionStreamId,
  type AuthorizationFacts,
  type CardEvent,
  type TransactionEvent,
} from '@ledger/domain';
import { NO_FAULTS } from '@ledger/event-store';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { TransactionMovements } from '../transaction-movement/transaction-movement';
import { ExpireAuthorizationHandler } from './expire-authorization.handler';

const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const AUTHORIZATION = 'txn_authorization';
const CARD_STREAM = cardStreamId(CARD);
const TRANSACTION_STREAM = transactionStreamId(AUTHORIZATION);
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-21T09:26:53.589Z';
const AUTHORIZED_AT = '2025-03-14T08:00:00.000Z';

const program = [programCreated({ programToken: PROGRAM, created: AUTHORIZED_AT })];
const card = cardCreated({ cardToken: CARD, programToken: PROGRAM, created: AUTHORIZED_AT });
/** An approved authorization of 40.00, held on the card. */
const facts: AuthorizationFacts = {
  cardToken: CARD,
  programToken: PROGRAM,
  transactionToken: AUTHORIZATION,
  eventToken: 'evt_authorization',
  amount: 4000,
  merchant: { acceptorId: 'acq_1', city: 'Berlin', country: 'DEU', descriptor: 'HOTEL', mcc: '7011', state: '' },
  merchantAmount: 4000,
  merchantCurrency: 'USD',
  authorizationCode: '123456',
  fundingToken: 'fund_default',
  at: AUTHORIZED_AT,
};
const approved: CardEvent = { type: 'CardAuthorizationApproved', data: facts };
const authorized: TransactionEvent = { type: 'TransactionAuthorized', data: { ...facts, result: 'APPROVED' } };
const given = (transactionLater: TransactionEvent[] = [], cardLater: CardEvent[] = []) => ({
  [programStreamId(PROGRAM)]: program,
  [CARD_STREAM]: [card, approved, ...cardLater],
  [TRANSACTION_STREAM]: [authorized, ...transactionLater],
});
const expire = (options: { amount?: number; programToken?: string; eventToken?: string } = {}) =>
  new ExpireAuthorizationCommand({ ...origin, programToken: options.programToken ?? PROGRAM }, AUTHORIZATION, options.amount, options.eventToken ?? 'evt_expiry');

describe('ExpireAuthorizationHandler', () => {
  const expiries = ledgerHandlerSpecification({ handler: (env) => new ExpireAuthorizationHandler(new TransactionMovements(env, NO_FAULTS)), now: new Date(NOW) });

  it('releases the whole hold and the card stops counting it, in one commit', async () => {
    const { result, writes } = await expiries
      .given(given())
      .when((handler) => handler.execute(expire()))
      .then({
        [TRANSACTION_STREAM]: [{ type: 'TransactionExpired', data: { transactionToken: AUTHORIZATION, eventToken: 'evt_expiry', amount: 4000, at: NOW } }],
        [CARD_STREAM]: [{ type: 'CardSpendAdjusted', data: { cardToken: CARD, transactionToken: AUTHORIZATION, transactionVersion: 1, cause: 'EXPIRY', amount: 0 } }],
      });

    expect(writes).toEqual([[TRANSACTION_STREAM, CARD_STREAM]]);
    expect(result).toEqual({ transactionToken: AUTHORIZATION, result: 'APPROVED', position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it('expires what a partial void left, and takes an amount that is exactly that', async () => {
    const partlyVoided: TransactionEvent = { type: 'TransactionVoided', data: { transactionToken: AUTHORIZATION, eventToken: 'evt_void', amount: 1500, at: AUTHORIZED_AT } };
    const adjusted: CardEvent = { type: 'CardSpendAdjusted', data: { cardToken: CARD, transactionToken: AUTHORIZATION, transactionVersion: 1, cause: 'VOID', amount: 2500 } };
    await expiries
      .given(given([partlyVoided], [adjusted]))
      .when((handler) => handler.execute(expire({ amount: 2500 })))
      .then({
        [TRANSACTION_STREAM]: [{ type: 'TransactionExpired', data: { transactionToken: AUTHORIZATION, eventToken: 'evt_expiry', amount: 2500, at: NOW } }],
        [CARD_STREAM]: [{ type: 'CardSpendAdjusted', data: { cardToken: CARD, transactionToken: AUTHORIZATION, transactionVersion: 2, cause: 'EXPIRY', amount: 0 } }],
      });
    await expiries.given(given([partlyVoided], [adjusted])).when((handler) => handler.execute(expire({ amount: 1000 }))).thenThrows(ExpiryAmountNotPending);
  });

  it('refuses what is not pending, as a void is refused', async () => {
    const cleared: TransactionEvent = { type: 'TransactionCleared', data: { transactionToken: AUTHORIZATION, eventToken: 'evt_clearing', amount: 4000, at: AUTHORIZED_AT } };
    await expiries.given(given([cleared])).when((handler) => handler.execute(expire())).thenThrows(TransactionStateConflict, { message: expect.stringContaining('is SETTLING; an expiry needs a PENDING authorization') });
    const expired: TransactionEvent = { type: 'TransactionExpired', data: { transactionToken: AUTHORIZATION, eventToken: 'evt_earlier', amount: 4000, at: AUTHORIZED_AT } };
    await expiries.given(given([expired])).when((handler) => handler.execute(expire())).thenThrows(TransactionStateConflict, { message: expect.stringContaining('is EXPIRED') });
  });

  it("refuses an unknown token, and another program's transaction alike", async () => {
    await expiries.given({ [CARD_STREAM]: [card] }).when((handler) => handler.execute(expire())).thenThrows(TransactionNotFound, { transactionToken: AUTHORIZATION });
    await expiries.given(given()).when((handler) => handler.execute(expire({ programToken: 'prog_other' }))).thenThrows(TransactionNotFound, { transactionToken: AUTHORIZATION });
  });

  it('refuses an expiry whose event token was withdrawn, appending nothing', async () => {
    await expiries
      .given(given([{ type: 'EventTokenWithdrawn', data: { transactionToken: AUTHORIZATION, programToken: PROGRAM, eventToken: 'evt_expiry', at: AUTHORIZED_AT } }]))
      .when((handler) => handler.execute(expire()))
      .thenThrows(TransactionEventTokenWithdrawn, { message: expect.stringContaining('evt_expiry') });
  });
});
