import { CardVault } from '@ledger/card-vault';
import { SimulateReturnCommand } from '@ledger/contracts';
import { cardNumberStreamId, cardStreamId, InvalidInput, programStreamId, transactionStreamId, type CardEvent, type TransactionEvent } from '@ledger/domain';
import { WrongExpectedVersionError, type FaultPoints } from '@ledger/event-store';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { CardLocator, NoCardWithThisNumber } from '../card-locator';
import { SimulateReturnHandler } from './simulate-return.handler';

const vault = new CardVault(Buffer.alloc(32, 7));
const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const RETURN = 'txn_return';
const CARD_STREAM = cardStreamId(CARD);
const RETURN_STREAM = transactionStreamId(RETURN);
const PAN = '4242424242424242';
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const merchant = { acceptorId: 'acq_1', city: 'Berlin', country: 'DEU', descriptor: 'SHOES', mcc: '5661', state: '' };

const program = [programCreated({ programToken: PROGRAM, created: NOW })];
const secrets = vault.protect(PAN);
const card = cardCreated({ cardToken: CARD, programToken: PROGRAM, ...secrets, created: NOW });
/** The card is found by its number through the registry stream, as CreateCardHandler leaves it. */
const registry = { [cardNumberStreamId(secrets.panHash)]: [{ type: 'CardNumberAssigned', data: { panHash: secrets.panHash, cardToken: CARD, programToken: PROGRAM } }] };
const given = (...later: CardEvent[]) => ({ [programStreamId(PROGRAM)]: program, ...registry, [CARD_STREAM]: [card, ...later] });
const returnOf = (amount: number, pan = PAN, programToken = PROGRAM) => new SimulateReturnCommand({ ...origin, programToken }, pan, amount, merchant, RETURN);

/** Each decision passes the handler's 'folds-loaded' point once: how often the scenario's command was decided. */
let decisions = 0;
const countingDecisions: FaultPoints = {
  reached(point) {
    if (point === 'folds-loaded') decisions += 1;
  },
};

describe('SimulateReturnHandler', () => {
  const returns = ledgerHandlerSpecification({
    handler: (env) => {
      decisions = 0;
      return new SimulateReturnHandler(env, new CardLocator(env, vault), countingDecisions);
    },
    now: new Date(NOW),
  });
  const recordedReturn = (amount: number) => ({
    [RETURN_STREAM]: [
      {
        type: 'TransactionReturned',
        data: {
          cardToken: CARD,
          programToken: PROGRAM,
          transactionToken: RETURN,
          eventToken: returns.id(1),
          amount,
          merchant,
          merchantAmount: amount,
          merchantCurrency: 'USD',
          authorizationCode: expect.stringMatching(/^\d{6}$/),
          fundingToken: 'fund_default',
          at: NOW,
        },
      },
    ],
    [CARD_STREAM]: [{ type: 'CardReturnCredited', data: { cardToken: CARD, transactionToken: RETURN, eventToken: returns.id(1), amount, at: NOW } }],
  });

  it("opens the return's transaction under the caller's token and credits the card, in one commit", async () => {
    const { result, writes } = await returns
      .given(given())
      .when((handler) => handler.execute(returnOf(2500)))
      .then(recordedReturn(2500));

    expect(writes).toEqual([[RETURN_STREAM, CARD_STREAM]]);
    expect(result).toEqual({ transactionToken: RETURN, result: 'APPROVED', position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it("records a credit's kind on its transaction; a pending credit credits the card 0 until its clearing", async () => {
    const advice = recordedReturn(700);
    await returns
      .given(given())
      .when((handler) => handler.execute(new SimulateReturnCommand(origin, PAN, 700, merchant, RETURN, 'CREDIT_AUTHORIZATION_ADVICE')))
      .then({
        [RETURN_STREAM]: [{ ...advice[RETURN_STREAM][0], data: { ...advice[RETURN_STREAM][0].data, kind: 'CREDIT_AUTHORIZATION_ADVICE' } }],
        [CARD_STREAM]: [{ type: 'CardReturnCredited', data: { cardToken: CARD, transactionToken: RETURN, eventToken: returns.id(1), amount: 0, at: NOW } }],
      });
  });

  it('a financial credit authorization credits the card at once, as a return, with its kind on the transaction', async () => {
    const credit = recordedReturn(700);
    await returns
      .given(given())
      .when((handler) => handler.execute(new SimulateReturnCommand(origin, PAN, 700, merchant, RETURN, 'FINANCIAL_CREDIT_AUTHORIZATION')))
      .then({ ...credit, [RETURN_STREAM]: [{ ...credit[RETURN_STREAM][0], data: { ...credit[RETURN_STREAM][0].data, kind: 'FINANCIAL_CREDIT_AUTHORIZATION' } }] });
  });

  it('takes a return on a closed card, and on a paused one', async () => {
    await returns.given(given({ type: 'CardClosed', data: { cardToken: CARD, reason: 'REQUESTED' } })).when((handler) => handler.execute(returnOf(700))).then(recordedReturn(700));
    await returns.given(given({ type: 'CardPaused', data: { cardToken: CARD } })).when((handler) => handler.execute(returnOf(700))).then(recordedReturn(700));
  });

  it("refuses a number no card of the program has, another program's card alike, and a number whose check digit is wrong", async () => {
    await returns.given(given()).when((handler) => handler.execute(returnOf(700, '4000056655665556'))).thenThrows(NoCardWithThisNumber, { field: 'pan' });
    await returns.given(given()).when((handler) => handler.execute(returnOf(700, PAN, 'prog_other'))).thenThrows(NoCardWithThisNumber);
    await returns.given(given()).when((handler) => handler.execute(returnOf(700, '4242424242424241'))).thenThrows(InvalidInput, { field: 'pan' });
  });

  it('refuses the whole write when the transaction token is taken (withdrawn by the gateway, or a transaction already): the card is not credited', async () => {
    const withdrawn: TransactionEvent = { type: 'AuthorizationWithdrawn', data: { transactionToken: RETURN, programToken: PROGRAM, at: NOW } };
    await returns
      .given({ ...given(), [RETURN_STREAM]: [withdrawn] })
      .when((handler) => handler.execute(returnOf(700)))
      .thenThrows(WrongExpectedVersionError, { streamId: RETURN_STREAM, actual: 0 });
    // The refusal is the answer at once: a stream that must be new is not a lost race to decide again.
    expect(decisions).toBe(1);
    const earlierReturn: TransactionEvent = {
      type: 'TransactionReturned',
      data: { cardToken: CARD, programToken: PROGRAM, transactionToken: RETURN, eventToken: 'evt_earlier', amount: 700, merchant, merchantAmount: 700, merchantCurrency: 'USD', authorizationCode: '000001', fundingToken: 'fund_default', at: NOW },
    };
    await returns
      .given({ ...given(), [RETURN_STREAM]: [earlierReturn] })
      .when((handler) => handler.execute(returnOf(700)))
      .thenThrows(WrongExpectedVersionError, { streamId: RETURN_STREAM });
    expect(decisions).toBe(1);
  });
});
