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
  type ProgramEvent,
  type TransactionEvent,
} from '@ledger/domain';
import { chainEvents, InMemoryEventStore, NO_FAULTS, type PipelineEnvironment } from '@ledger/event-store';
import { ledgerPipelineEnvironment } from '@ledger/runtime';
import { commandHandlerSpecification, type FixedClockAndIds } from '@ledger/test-support';
import { TransactionMovements } from '../transaction-movement/transaction-movement';
import { SimulateTransactionEventHandler } from './simulate-transaction-event.handler';

const environment = ({ now, newId }: FixedClockAndIds): PipelineEnvironment => ledgerPipelineEnvironment({ store: new InMemoryEventStore({ now }), now, newId });
const seal = (streamId: string, events: Parameters<typeof chainEvents>[2]) => chainEvents(streamId, null, events);

const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const TRANSACTION = 'txn_1';
const CARD_STREAM = cardStreamId(CARD);
const TRANSACTION_STREAM = transactionStreamId(TRANSACTION);
const origin = { programToken: PROGRAM, correlationId: 'corr-1', causationId: null };
const NOW = '2025-03-14T09:26:53.589Z';
const AUTHORIZED_AT = '2025-03-14T08:00:00.000Z';

const program: ProgramEvent[] = [
  { type: 'ProgramCreated', data: { programToken: PROGRAM, name: 'Acme', created: AUTHORIZED_AT } },
  {
    type: 'FundingSourceAdded',
    data: { programToken: PROGRAM, fundingToken: 'fund_default', type: 'DEPOSITORY_CHECKING', state: 'ENABLED', nickname: '', accountName: 'Acme checking', lastFour: '1234', created: AUTHORIZED_AT, isDefault: true },
  },
];
const cardCreated: CardEvent = {
  type: 'CardCreated',
  data: {
    cardToken: CARD,
    programToken: PROGRAM,
    cardType: 'UNLOCKED',
    state: 'OPEN',
    memo: '',
    spendLimit: 0,
    spendLimitDuration: 'TRANSACTION',
    fundingToken: 'fund_default',
    expMonth: '03',
    expYear: '2028',
    lastFour: '0007',
    panHash: 'hash-of-the-pan',
    panEncrypted: 'v1.sealed-pan',
    pinHash: null,
    created: AUTHORIZED_AT,
  },
};
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
  [CARD_STREAM]: [cardCreated, { type: 'CardAuthorizationApproved', data: facts } as CardEvent],
  [TRANSACTION_STREAM]: [authorized, ...later],
});

describe('SimulateTransactionEventHandler', () => {
  const movements = commandHandlerSpecification({ environment, seal, handler: (env) => new SimulateTransactionEventHandler(new TransactionMovements(env, NO_FAULTS)), now: new Date(NOW) });
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
          cardCreated,
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
    await movements.given({ [CARD_STREAM]: [cardCreated] }).when((handler) => handler.execute(simulate('VOID', 100))).thenThrows(TransactionNotFound, { transactionToken: TRANSACTION });
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
