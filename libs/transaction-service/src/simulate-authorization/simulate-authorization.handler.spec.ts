import { Logger } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { Test } from '@nestjs/testing';
import { AuthorizationStreamClient, AuthorizeCardSpendHandler, ProgramSpend } from '@ledger/card-service';
import { CardVault } from '@ledger/card-vault';
import { SimulateAuthorizationCommand, type PresentedCardDetails } from '@ledger/contracts';
import { cardNumberStreamId, cardStreamId, InvalidInput, programStreamId, transactionStreamId, type TransactionEvent } from '@ledger/domain';
import { EgressGuard, EgressHttpClient, EgressPolicy } from '@ledger/egress';
import { NO_FAULTS, WrongExpectedVersionError, type EventStore, type PipelineEnvironment } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { FAULT_POINTS, PIPELINE_ENVIRONMENT, type LedgerConfig, type ProjectionWatcher } from '@ledger/runtime';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programWithFundingSources } from '@ledger/runtime/test';
import { unusable } from '@ledger/test-support';
import { CardLocator, NoCardWithThisNumber } from '../card-locator';
import { SimulateAuthorizationHandler } from './simulate-authorization.handler';

/** These programs have no weekly or monthly limit, so ProgramSpend tallies nothing; one that read would fail here. */
const notRead = <T>(what: string) => unusable<T>(`ProgramSpend used ${what}`, 'these programs have no weekly or monthly limit to tally');
const programSpend = (store: EventStore) => new ProgramSpend(notRead<ReadModelClient>('the read model'), store, notRead<ProjectionWatcher>('the projection watcher'), notRead<LedgerConfig>('the config'));

const vault = new CardVault(Buffer.alloc(32, 7));
/** No program here enrolls an authorization endpoint, so nothing may be asked: the policy allows no address. */
const http = new EgressHttpClient(new EgressGuard(EgressPolicy.of([])));
beforeAll(() => Logger.overrideLogger(false));
afterAll(() => http.close());

/**
 * The handler as the transaction-service runs it: a Nest module with the real CommandBus, on which
 * the card-service's real AuthorizeCardSpendHandler is registered (in one process, as the embedded
 * deployment runs both), both on the scenario's pipeline environment. One module per command.
 */
const wiredOn = (env: PipelineEnvironment) => ({
  async execute(command: SimulateAuthorizationCommand) {
    const moduleRef = await Test.createTestingModule({
      imports: [CqrsModule],
      providers: [
        { provide: PIPELINE_ENVIRONMENT, useValue: env },
        { provide: FAULT_POINTS, useValue: NO_FAULTS },
        { provide: CardVault, useValue: vault },
        { provide: ProgramSpend, useValue: programSpend(env.store) },
        { provide: AuthorizationStreamClient, useValue: new AuthorizationStreamClient(http) },
        AuthorizeCardSpendHandler,
        CardLocator,
        SimulateAuthorizationHandler,
      ],
    }).compile();
    // The bus learns its handlers when the application starts.
    await moduleRef.init();
    try {
      return await moduleRef.get(SimulateAuthorizationHandler).execute(command);
    } finally {
      await moduleRef.close();
    }
  },
});

const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const TRANSACTION = 'txn_1';
const CARD_STREAM = cardStreamId(CARD);
const TRANSACTION_STREAM = transactionStreamId(TRANSACTION);
const PAN = '4242424242424242';
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const merchant = { acceptorId: 'acq_1', city: 'Berlin', country: 'DEU', descriptor: 'COFFEE', mcc: '5814', state: '' };
const CVV = vault.cvv(PAN, '03', '2028');

const program = programWithFundingSources({ programToken: PROGRAM, created: NOW });
const secrets = vault.protect(PAN);
const card = cardCreated({ cardToken: CARD, programToken: PROGRAM, ...secrets, created: NOW });
const given = {
  [programStreamId(PROGRAM)]: program,
  [cardNumberStreamId(secrets.panHash)]: [{ type: 'CardNumberAssigned', data: { panHash: secrets.panHash, cardToken: CARD, programToken: PROGRAM } }],
  [CARD_STREAM]: [card],
};
const simulate = (presented: PresentedCardDetails, pan = PAN, programToken = PROGRAM) =>
  new SimulateAuthorizationCommand({ ...origin, programToken }, { pan, amount: 1000, merchant, merchantCurrency: 'EUR', merchantAmount: 900, presented }, TRANSACTION);

describe('SimulateAuthorizationHandler', () => {
  const authorizations = ledgerHandlerSpecification({ handler: wiredOn, now: new Date(NOW) });
  const recorded = () => ({
    cardToken: CARD,
    programToken: PROGRAM,
    transactionToken: TRANSACTION,
    // The simulation names the authorization's event first thing, with the environment's ids.
    eventToken: authorizations.id(1),
    amount: 1000,
    merchant,
    merchantAmount: 900,
    merchantCurrency: 'EUR',
    authorizationCode: expect.stringMatching(/^\d{6}$/),
    fundingToken: 'fund_default',
    at: NOW,
  });

  it("finds the card by its number and has the card-service decide through the command bus: the approval and its transaction in one commit, under the caller's token", async () => {
    const { result, writes } = await authorizations
      .given(given)
      .when((handler) => handler.execute(simulate({ cvv: CVV })))
      .then({
        [CARD_STREAM]: [{ type: 'CardAuthorizationApproved', data: recorded() }],
        [TRANSACTION_STREAM]: [{ type: 'TransactionAuthorized', data: { ...recorded(), result: 'APPROVED' } }],
      });

    expect(result).toEqual({ transactionToken: TRANSACTION, result: 'APPROVED', position: expect.stringMatching(/^\d+\/\d+$/) });
    expect(writes).toEqual([[CARD_STREAM, TRANSACTION_STREAM]]);
  });

  it("answers the card's decline as the result", async () => {
    const { result } = await authorizations
      .given(given)
      .when((handler) => handler.execute(simulate({ cvv: CVV === '000' ? '001' : '000' })))
      .then({
        [CARD_STREAM]: [{ type: 'CardAuthorizationDeclined', data: { ...recorded(), reason: 'INVALID_CARD_DETAILS' } }],
        [TRANSACTION_STREAM]: [{ type: 'TransactionAuthorized', data: { ...recorded(), result: 'INVALID_CARD_DETAILS' } }],
      });

    expect(result.result).toBe('INVALID_CARD_DETAILS');
  });

  it("refuses a number no card of the program has, another program's card alike, and a number whose check digit is wrong", async () => {
    await authorizations.given(given).when((handler) => handler.execute(simulate({}, '4000056655665556'))).thenThrows(NoCardWithThisNumber, { field: 'pan' });
    await authorizations.given(given).when((handler) => handler.execute(simulate({}, PAN, 'prog_other'))).thenThrows(NoCardWithThisNumber);
    await authorizations.given(given).when((handler) => handler.execute(simulate({}, '4242424242424241'))).thenThrows(InvalidInput, { field: 'pan' });
  });

  it('refuses the whole write when the transaction token is taken (the gateway withdrew it)', async () => {
    const withdrawn: TransactionEvent = { type: 'AuthorizationWithdrawn', data: { transactionToken: TRANSACTION, programToken: PROGRAM, at: NOW } };
    await authorizations
      .given({ ...given, [TRANSACTION_STREAM]: [withdrawn] })
      .when((handler) => handler.execute(simulate({ cvv: CVV })))
      .thenThrows(WrongExpectedVersionError, { streamId: TRANSACTION_STREAM });
  });
});
