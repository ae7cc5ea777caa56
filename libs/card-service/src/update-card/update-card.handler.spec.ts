import { CardVault } from '@ledger/card-vault';
import { UpdateCardCommand } from '@ledger/contracts';
import { CardIsClosed, CardNotFound, cardStreamId, FundingSourceNotFound, ProgramNotFound, programStreamId, type CardEvent } from '@ledger/domain';
import { cardCreated, commandOrigin, ledgerHandlerSpecification, programWithFundingSources } from '@ledger/runtime/test';
import { UpdateCardHandler } from './update-card.handler';

const vault = new CardVault(Buffer.alloc(32, 7));
const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const CARD_STREAM = cardStreamId(CARD);
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const program = programWithFundingSources({ programToken: PROGRAM, created: NOW, fundingTokens: ['fund_default', 'fund_other'] });
const pan = '4242420000000007';
const card = cardCreated({ cardToken: CARD, programToken: PROGRAM, memo: 'Travel', spendLimit: 1000, spendLimitDuration: 'MONTHLY', ...vault.protect(pan), created: NOW });
const given = (...events: CardEvent[]) => ({ [programStreamId(PROGRAM)]: program, [CARD_STREAM]: [card, ...events] });

describe('UpdateCardHandler', () => {
  const update = ledgerHandlerSpecification({ handler: (env) => new UpdateCardHandler(env, vault) });

  it.each([
    { state: 'PAUSED' as const, given: [], event: { type: 'CardPaused', data: { cardToken: CARD } } },
    { state: 'OPEN' as const, given: [{ type: 'CardPaused', data: { cardToken: CARD } } as CardEvent], event: { type: 'CardResumed', data: { cardToken: CARD } } },
    { state: 'CLOSED' as const, given: [], event: { type: 'CardClosed', data: { cardToken: CARD, reason: 'REQUESTED' } } },
  ])('records the move to $state', async ({ state, given: before, event }) => {
    const { result } = await update
      .given(given(...before))
      .when((handler) => handler.execute(new UpdateCardCommand(origin, CARD, { state })))
      .then({ [CARD_STREAM]: [event] });

    expect(result).toEqual({ token: CARD, position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it('records the changed details in one event, before the state change, a new PIN as a card-bound hash', async () => {
    await update
      .given(given())
      .when((handler) => handler.execute(new UpdateCardCommand(origin, CARD, { memo: 'Food', spendLimit: 2000, spendLimitDuration: 'MONTHLY', fundingToken: 'fund_other', pin: '4321', state: 'PAUSED' })))
      .then({
        [CARD_STREAM]: [
          { type: 'CardDetailsChanged', data: { cardToken: CARD, memo: 'Food', spendLimit: 2000, fundingToken: 'fund_other', pinHash: vault.pinHash(CARD, '4321') } },
          { type: 'CardPaused', data: { cardToken: CARD } },
        ],
      });
  });

  it('records nothing when nothing changes, and still answers the card\'s position', async () => {
    const { result } = await update
      .given(given())
      .when((handler) => handler.execute(new UpdateCardCommand(origin, CARD, { state: 'OPEN', memo: 'Travel', fundingToken: 'fund_default' })))
      .then({});

    expect(result.position).toEqual(expect.stringMatching(/^\d+\/\d+$/));
  });

  it('refuses a card that does not exist, and a card of another program alike', async () => {
    await update.given(given()).when((handler) => handler.execute(new UpdateCardCommand(origin, 'card_missing', { state: 'PAUSED' }))).thenThrows(CardNotFound, { field: 'card_token' });
    await update
      .given(given())
      .when((handler) => handler.execute(new UpdateCardCommand({ ...origin, programToken: 'prog_other' }, CARD, { state: 'PAUSED' })))
      .thenThrows(CardNotFound, { message: `Card ${CARD} not found` });
  });

  it('refuses any change to a closed card', async () => {
    await update
      .given(given({ type: 'CardClosed', data: { cardToken: CARD, reason: 'REQUESTED' } }))
      .when((handler) => handler.execute(new UpdateCardCommand(origin, CARD, { state: 'OPEN' })))
      .thenThrows(CardIsClosed, { field: 'state' });
  });

  it("refuses a funding source that is not the program's", async () => {
    await update
      .given(given())
      .when((handler) => handler.execute(new UpdateCardCommand(origin, CARD, { fundingToken: 'fund_elsewhere' })))
      .thenThrows(FundingSourceNotFound, { fundingToken: 'fund_elsewhere' });
  });

  it('refuses a new funding source when the program does not exist', async () => {
    await update
      .given({ [CARD_STREAM]: [card] })
      .when((handler) => handler.execute(new UpdateCardCommand(origin, CARD, { fundingToken: 'fund_other' })))
      .thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});
