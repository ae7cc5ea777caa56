import { SimulateReturnReversalCommand } from '@ledger/contracts';
import {
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
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { TransactionMovements } from '../transaction-movement/transaction-movement';
import { SimulateReturnReversalHandler } from './simulate-return-reversal.handler';

const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const RETURN = 'txn_return';
const CARD_STREAM = cardStreamId(CARD);
const RETURN_STREAM = transactionStreamId(RETURN);
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const RETURNED_AT = '2025-03-14T08:00:00.000Z';

const program = [programCreated({ programToken: PROGRAM, created: RETURNED_AT })];
const card = cardCreated({ cardToken: CARD, programToken: PROGRAM, created: RETURNED_AT });
/** A return of 25.00 as its own transaction (SETTLING at once) and the credit it gave the card. */
const facts: AuthorizationFacts = {
  cardToken: CARD,
  programToken: PROGRAM,
  transactionToken: RETURN,
  eventToken: 'evt_return',
  amount: 2500,
  merchant: { acceptorId: 'acq_1', city: 'Berlin', country: 'DEU', descriptor: 'SHOES', mcc: '5661', state: '' },
  merchantAmount: 2500,
  merchantCurrency: 'USD',
  authorizationCode: '654321',
  fundingToken: 'fund_default',
  at: RETURNED_AT,
};
const returned: TransactionEvent = { type: 'TransactionReturned', data: facts };
const credited: CardEvent = { type: 'CardReturnCredited', data: { cardToken: CARD, transactionToken: RETURN, eventToken: 'evt_return', amount: 2500, at: RETURNED_AT } };
const given = (...later: TransactionEvent[]) => ({ [programStreamId(PROGRAM)]: program, [CARD_STREAM]: [card, credited], [RETURN_STREAM]: [returned, ...later] });
const reverse = (eventToken = 'evt_reversal', programToken = PROGRAM, transactionToken = RETURN) => new SimulateReturnReversalCommand({ ...origin, programToken }, transactionToken, eventToken);

describe('SimulateReturnReversalHandler', () => {
  const reversals = ledgerHandlerSpecification({ handler: (env) => new SimulateReturnReversalHandler(new TransactionMovements(env, NO_FAULTS)), now: new Date(NOW) });

  it("takes the whole return back and the card's credit with it (the return now counts 0), in one commit", async () => {
    const { result, writes } = await reversals
      .given(given())
      .when((handler) => handler.execute(reverse()))
      .then({
        [RETURN_STREAM]: [{ type: 'TransactionReturnReversed', data: { transactionToken: RETURN, eventToken: 'evt_reversal', amount: 2500, at: NOW } }],
        [CARD_STREAM]: [{ type: 'CardSpendAdjusted', data: { cardToken: CARD, transactionToken: RETURN, transactionVersion: 1, cause: 'RETURN_REVERSAL', amount: 0 } }],
      });

    expect(writes).toEqual([[RETURN_STREAM, CARD_STREAM]]);
    expect(result).toEqual({ transactionToken: RETURN, result: 'APPROVED', position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it('takes back a settled return too, at the version after its settlement', async () => {
    await reversals
      .given(given({ type: 'TransactionSettled', data: { transactionToken: RETURN, at: RETURNED_AT } }))
      .when((handler) => handler.execute(reverse()))
      .then({
        [RETURN_STREAM]: [{ type: 'TransactionReturnReversed', data: { transactionToken: RETURN, eventToken: 'evt_reversal', amount: 2500, at: NOW } }],
        [CARD_STREAM]: [{ type: 'CardSpendAdjusted', data: { cardToken: CARD, transactionToken: RETURN, transactionVersion: 2, cause: 'RETURN_REVERSAL', amount: 0 } }],
      });
  });

  it('refuses a return already reversed, and one that bounced (it never credited anything)', async () => {
    const reversed: TransactionEvent = { type: 'TransactionReturnReversed', data: { transactionToken: RETURN, eventToken: 'evt_earlier', amount: 2500, at: RETURNED_AT } };
    await reversals.given(given(reversed)).when((handler) => handler.execute(reverse())).thenThrows(TransactionStateConflict, { message: expect.stringContaining('is VOIDED') });
    const bounced: TransactionEvent = { type: 'TransactionBounced', data: { transactionToken: RETURN, at: RETURNED_AT, fundingState: 'DELETED' } };
    await reversals.given(given(bounced)).when((handler) => handler.execute(reverse())).thenThrows(TransactionStateConflict, { message: expect.stringContaining('is BOUNCED') });
  });

  it('refuses a transaction that is not a return', async () => {
    const authorization = transactionStreamId('txn_authorization');
    await reversals
      .given({
        [CARD_STREAM]: [card, { type: 'CardAuthorizationApproved', data: { ...facts, transactionToken: 'txn_authorization' } }],
        [authorization]: [{ type: 'TransactionAuthorized', data: { ...facts, transactionToken: 'txn_authorization', result: 'APPROVED' } }],
      })
      .when((handler) => handler.execute(reverse('evt_reversal', PROGRAM, 'txn_authorization')))
      .thenThrows(TransactionStateConflict, { message: expect.stringContaining('needs a SETTLING or SETTLED return') });
  });

  it("refuses a return that does not exist, and another program's alike", async () => {
    await reversals.given({ [CARD_STREAM]: [card] }).when((handler) => handler.execute(reverse())).thenThrows(TransactionNotFound, { transactionToken: RETURN });
    await reversals.given(given()).when((handler) => handler.execute(reverse('evt_reversal', 'prog_other'))).thenThrows(TransactionNotFound, { transactionToken: RETURN });
  });

  it('refuses a reversal whose event token was withdrawn, appending nothing', async () => {
    await reversals
      .given(given({ type: 'EventTokenWithdrawn', data: { transactionToken: RETURN, programToken: PROGRAM, eventToken: 'evt_reversal', at: RETURNED_AT } }))
      .when((handler) => handler.execute(reverse()))
      .thenThrows(TransactionEventTokenWithdrawn, { message: expect.stringContaining('evt_reversal') });
  });
});
