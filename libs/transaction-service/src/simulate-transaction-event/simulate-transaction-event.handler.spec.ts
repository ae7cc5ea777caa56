import { SimulateTransactionEventCommand } from '@ledger/contracts';
import {
  AmountAboveAvailable,
  cardStreamId,
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
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programWithFundingSources } from '@ledger/runtime/test';
import { TransactionMovements } from '../transaction-movement/transaction-movement';
import { SimulateTransactionEventHandler } from './simulate-transaction-event.handler';

const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const TRANSACTION = 'txn_1';
const CARD_STREAM = cardStreamId(CARD);
const TRANSACTION_STREAM = transactionStreamId(TRANSACTION);
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const AUTHORIZED_AT = '2025-03-14T08:00:00.000Z';

const program = programWithFundingSources({ programToken: PROGRAM, created: AUTHORIZED_AT });
const card = cardCreated({ cardToken: CARD, programToken: PROGRAM, created: AUTHORIZED_AT });
/** An approval of 10.00 USD (9.00 in the merchant's currency), as the card and its transaction both recorded it. */
const facts: AuthorizationFacts = {
  cardToken: CARD,
  programToken: PROGRAM,
  transactionToken: TRANSACTION,
  eventToken: 'evt_authorization',
  amount: 1000,
  merchant: { acceptorId: 'acq_1', city: 'Berlin', country: 'DEU', descriptor: 'COFFEE', mcc: '5814', state: '' },
  merchantAmount: 900,
  merchantCurrency: 'EUR',
  authorizationCode: '123456',
  fundingToken: 'fund_default',
  at: AUTHORIZED_AT,
};
const authorized: TransactionEvent = { type: 'TransactionAuthorized', data: { ...facts, result: 'APPROVED' } };
const given = (...later: TransactionEvent[]) => ({
  [programStreamId(PROGRAM)]: program,
  [CARD_STREAM]: [card, { type: 'CardAuthorizationApproved', data: facts } as CardEvent],
  [TRANSACTION_STREAM]: [authorized, ...later],
});

describe('SimulateTransactionEventHandler', () => {
  const movements = ledgerHandlerSpecification({ handler: (env) => new SimulateTransactionEventHandler(new TransactionMovements(env, NO_FAULTS)), now: new Date(NOW) });
  const simulate = (action: 'VOID' | 'CLEARING' | 'ADVICE', amount: number | undefined, eventToken = 'evt_movement', programToken = PROGRAM) =>
    new SimulateTransactionEventCommand({ ...origin, programToken }, action, TRANSACTION, amount, eventToken);

  it.each([
    { action: 'VOID' as const, what: 'part', amount: 400, event: 'TransactionVoided', cause: 'VOID', counted: 600 },
    { action: 'VOID' as const, what: 'no amount (all that is pending)', amount: undefined, event: 'TransactionVoided', cause: 'VOID', counted: 0, moved: 1000 },
    { action: 'CLEARING' as const, what: 'more than authorized', amount: 1200, event: 'TransactionCleared', cause: 'CLEARING', counted: 1200 },
    { action: 'CLEARING' as const, what: 'no amount (all that is pending)', amount: undefined, event: 'TransactionCleared', cause: 'CLEARING', counted: 1000, moved: 1000 },
    { action: 'ADVICE' as const, what: 'a new amount', amount: 1500, event: 'TransactionAdvised', cause: 'ADVICE', counted: 1500 },
  ])(
    '$action of $what: the transaction event and the card counting the new amount at the transaction version it follows, in one commit',
    async ({ action, amount, event, cause, counted, moved }) => {
      const { result, writes } = await movements
        .given(given())
        .when((handler) => handler.execute(simulate(action, amount)))
        .then({
          [TRANSACTION_STREAM]: [{ type: event, data: { transactionToken: TRANSACTION, eventToken: 'evt_movement', amount: moved ?? amount, at: NOW } }],
          [CARD_STREAM]: [{ type: 'CardSpendAdjusted', data: { cardToken: CARD, transactionToken: TRANSACTION, transactionVersion: 1, cause, amount: counted } }],
        });

      expect(writes).toEqual([[TRANSACTION_STREAM, CARD_STREAM]]);
      expect(result).toEqual({ transactionToken: TRANSACTION, result: 'APPROVED', position: expect.stringMatching(/^\d+\/\d+$/) });
    },
  );

  it("names the transaction's new version on the card: a second movement follows the first", async () => {
    const partlyVoided: TransactionEvent = { type: 'TransactionVoided', data: { transactionToken: TRANSACTION, eventToken: 'evt_void', amount: 400, at: AUTHORIZED_AT } };
    await movements
      .given({
        ...given(partlyVoided),
        [CARD_STREAM]: [
          card,
          { type: 'CardAuthorizationApproved', data: facts },
          { type: 'CardSpendAdjusted', data: { cardToken: CARD, transactionToken: TRANSACTION, transactionVersion: 1, cause: 'VOID', amount: 600 } },
        ],
      })
      .when((handler) => handler.execute(simulate('CLEARING', undefined)))
      .then({
        [TRANSACTION_STREAM]: [{ type: 'TransactionCleared', data: { transactionToken: TRANSACTION, eventToken: 'evt_movement', amount: 600, at: NOW } }],
        [CARD_STREAM]: [{ type: 'CardSpendAdjusted', data: { cardToken: CARD, transactionToken: TRANSACTION, transactionVersion: 2, cause: 'CLEARING', amount: 600 } }],
      });
  });

  it('refuses a transaction that is no longer PENDING, writing neither stream', async () => {
    const cleared: TransactionEvent = { type: 'TransactionCleared', data: { transactionToken: TRANSACTION, eventToken: 'evt_clearing', amount: 1000, at: AUTHORIZED_AT } };
    for (const action of ['VOID', 'CLEARING', 'ADVICE'] as const) {
      await movements
        .given(given(cleared))
        .when((handler) => handler.execute(simulate(action, 100)))
        .thenThrows(TransactionStateConflict, { message: expect.stringContaining(`Transaction ${TRANSACTION} is SETTLING`) });
    }
  });

  it('refuses a void of more than is still pending', async () => {
    await movements.given(given()).when((handler) => handler.execute(simulate('VOID', 1001))).thenThrows(AmountAboveAvailable, { field: 'amount' });
  });

  it("refuses a transaction that does not exist, and another program's alike", async () => {
    await movements.given({ [CARD_STREAM]: [card] }).when((handler) => handler.execute(simulate('VOID', 100))).thenThrows(TransactionNotFound, { transactionToken: TRANSACTION });
    await movements.given(given()).when((handler) => handler.execute(simulate('VOID', 100, 'evt_movement', 'prog_other'))).thenThrows(TransactionNotFound, { transactionToken: TRANSACTION });
  });

  it('refuses an event whose token was withdrawn (its caller was told it was not recorded), appending nothing', async () => {
    const withdrawn: TransactionEvent = { type: 'EventTokenWithdrawn', data: { transactionToken: TRANSACTION, programToken: PROGRAM, eventToken: 'evt_movement', at: AUTHORIZED_AT } };
    for (const action of ['VOID', 'CLEARING', 'ADVICE'] as const) {
      await movements
        .given(given(withdrawn))
        .when((handler) => handler.execute(simulate(action, 100)))
        .thenThrows(TransactionEventTokenWithdrawn, { message: expect.stringContaining('evt_movement') });
    }
  });
});
