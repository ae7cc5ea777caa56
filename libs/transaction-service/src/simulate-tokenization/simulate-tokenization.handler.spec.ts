import { Logger } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { Test } from '@nestjs/testing';
import { TokenizeCardHandler } from '@ledger/card-service';
import { CardVault } from '@ledger/card-vault';
import { SimulateTokenizationCommand, type WalletTokenizationRequest } from '@ledger/contracts';
import { cardNumberStreamId, cardStreamId, InvalidInput, programStreamId, programTokenizationsStreamId, tokenizationStreamId, type CardEvent, type TokenizationDecided } from '@ledger/domain';
import type { PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { CardLocator, NoCardWithThisNumber } from '../card-locator';
import { SimulateTokenizationHandler } from './simulate-tokenization.handler';

const vault = new CardVault(Buffer.alloc(32, 7));
beforeAll(() => Logger.overrideLogger(false));

/**
 * The handler as the transaction-service runs it: a Nest module with the real CommandBus, on which
 * the card-service's real TokenizeCardHandler is registered (in one process, as the embedded
 * deployment runs both), both on the scenario's pipeline environment. One module per command.
 */
const wiredOn = (env: PipelineEnvironment) => ({
  async execute(command: SimulateTokenizationCommand) {
    const moduleRef = await Test.createTestingModule({
      imports: [CqrsModule],
      providers: [{ provide: PIPELINE_ENVIRONMENT, useValue: env }, { provide: CardVault, useValue: vault }, TokenizeCardHandler, CardLocator, SimulateTokenizationHandler],
    }).compile();
    // The bus learns its handlers when the application starts.
    await moduleRef.init();
    try {
      return await moduleRef.get(SimulateTokenizationHandler).execute(command);
    } finally {
      await moduleRef.close();
    }
  },
});

const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const PAN = '4242424242424242';
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const LIST_STREAM = programTokenizationsStreamId(PROGRAM);

const secrets = vault.protect(PAN);
/** A DIGITAL_WALLET card, OPEN, expiring 03/2028: the one card type a wallet may hold. */
const card = cardCreated({ cardToken: CARD, programToken: PROGRAM, cardType: 'DIGITAL_WALLET', ...secrets, created: NOW });
const given = (cardEvents: CardEvent[] = [card]) => ({
  [programStreamId(PROGRAM)]: [programCreated({ programToken: PROGRAM, created: NOW })],
  [cardNumberStreamId(secrets.panHash)]: [{ type: 'CardNumberAssigned', data: { panHash: secrets.panHash, cardToken: CARD, programToken: PROGRAM } }],
  [cardStreamId(CARD)]: cardEvents,
});
/** What a wallet presents for this card when its cardholder typed everything right. */
const rightDetails: WalletTokenizationRequest = { cvv: vault.cvv(PAN, '03', '2028'), expirationDate: '03/28', source: 'APPLE_PAY' };
const tokenize = (request: WalletTokenizationRequest = rightDetails, { pan = PAN, programToken = PROGRAM } = {}) => new SimulateTokenizationCommand({ ...origin, programToken }, pan, request);

describe('SimulateTokenizationHandler', () => {
  const tokenizations = ledgerHandlerSpecification({ handler: wiredOn, now: new Date(NOW) });
  // The card-service draws the token, then the decision's event token.
  const token = tokenizations.id(1);
  const stream = tokenizationStreamId(token);
  const decided = (data: Pick<TokenizationDecided['data'], 'source' | 'outcome' | 'declineReasons' | 'tfaReasons'>) => ({
    [stream]: [{ type: 'TokenizationDecided', data: { tokenizationToken: token, programToken: PROGRAM, cardToken: CARD, eventToken: tokenizations.id(2), at: NOW, ...data } }],
    [LIST_STREAM]: [{ type: 'TokenizationListed', data: { programToken: PROGRAM, tokenizationToken: token } }],
  });

  it("finds the card by its number and has the card-service decide the token through the command bus: approved, and listed on the program's tokens in the same write", async () => {
    const { result, writes } = await tokenizations
      .given(given())
      .when((handler) => handler.execute(tokenize()))
      .then(decided({ source: 'APPLE_PAY', outcome: 'APPROVED', declineReasons: [], tfaReasons: [] }));

    expect(writes).toEqual([[stream, LIST_STREAM]]);
    expect(result).toEqual({ token, position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it("passes the wallet's request on whole: its details are checked against the card's, and its scores count", async () => {
    await tokenizations
      .given(given())
      .when((handler) => handler.execute(tokenize({ cvv: rightDetails.cvv === '000' ? '001' : '000', expirationDate: '04/29', source: 'GOOGLE', accountScore: 1, deviceScore: 5 })))
      .then(decided({ source: 'GOOGLE', outcome: 'DECLINED', declineReasons: ['CVC_MISMATCH', 'CARD_EXPIRY_MONTH_MISMATCH', 'CARD_EXPIRY_YEAR_MISMATCH', 'ACCOUNT_SCORE_1'], tfaReasons: [] }));
    await tokenizations
      .given(given())
      .when((handler) => handler.execute(tokenize({ ...rightDetails, source: 'SAMSUNG_PAY', walletRecommendedDecision: 'REQUIRE_ADDITIONAL_AUTHENTICATION' })))
      .then(decided({ source: 'SAMSUNG_PAY', outcome: 'REQUIRE_ADDITIONAL_AUTHENTICATION', declineReasons: [], tfaReasons: ['WALLET_RECOMMENDED_TFA'] }));
  });

  it('decides on the card the number belongs to: a card of another type, or a paused one, is declined', async () => {
    await tokenizations
      .given(given([{ ...card, data: { ...card.data, cardType: 'UNLOCKED' } }]))
      .when((handler) => handler.execute(tokenize()))
      .then(decided({ source: 'APPLE_PAY', outcome: 'DECLINED', declineReasons: ['CARD_INVALID_STATE'], tfaReasons: [] }));
    await tokenizations
      .given(given([card, { type: 'CardPaused', data: { cardToken: CARD } }]))
      .when((handler) => handler.execute(tokenize()))
      .then(decided({ source: 'APPLE_PAY', outcome: 'DECLINED', declineReasons: ['CARD_INVALID_STATE'], tfaReasons: [] }));
  });

  it("refuses a number no card of the program has, another program's card alike, and a number whose check digit is wrong", async () => {
    await tokenizations.given(given()).when((handler) => handler.execute(tokenize(rightDetails, { pan: '4000056655665556' }))).thenThrows(NoCardWithThisNumber, { field: 'pan' });
    await tokenizations.given(given()).when((handler) => handler.execute(tokenize(rightDetails, { programToken: 'prog_other' }))).thenThrows(NoCardWithThisNumber);
    await tokenizations.given(given()).when((handler) => handler.execute(tokenize(rightDetails, { pan: '4242424242424241' }))).thenThrows(InvalidInput, { field: 'pan' });
  });
});
