import { CardVault } from '@ledger/card-vault';
import { UpdateCardCommand } from '@ledger/contracts';
import { CardIsClosed, CardNotFound, cardStreamId, FundingSourceNotFound, ProgramNotFound, programStreamId, type CardEvent, type ProgramEvent } from '@ledger/domain';
import { chainEvents, InMemoryEventStore, type PipelineEnvironment } from '@ledger/event-store';
import { ledgerPipelineEnvironment } from '@ledger/runtime';
import { commandHandlerSpecification, type FixedClockAndIds } from '@ledger/test-support';
import { UpdateCardHandler } from './update-card.handler';

const environment = ({ now, newId }: FixedClockAndIds): PipelineEnvironment => ledgerPipelineEnvironment({ store: new InMemoryEventStore({ now }), now, newId });
const seal = (streamId: string, events: Parameters<typeof chainEvents>[2]) => chainEvents(streamId, null, events);

const vault = new CardVault(Buffer.alloc(32, 7));
const PROGRAM = 'prog_acme';
const CARD = 'card_1';
const CARD_STREAM = cardStreamId(CARD);
const origin = { programToken: PROGRAM, correlationId: 'corr-1', causationId: null };
const NOW = '2025-03-14T09:26:53.589Z';
const program: ProgramEvent[] = [
  { type: 'ProgramCreated', data: { programToken: PROGRAM, name: 'Acme', created: NOW } },
  ...['fund_default', 'fund_other'].map(
    (fundingToken, n): ProgramEvent => ({
      type: 'FundingSourceAdded',
      data: { programToken: PROGRAM, fundingToken, type: 'DEPOSITORY_CHECKING', state: 'ENABLED', nickname: '', accountName: 'Acme checking', lastFour: '1234', created: NOW, isDefault: n === 0 },
    }),
  ),
];
const pan = '4242420000000007';
const cardCreated: CardEvent = {
  type: 'CardCreated',
  data: {
    cardToken: CARD,
    programToken: PROGRAM,
    cardType: 'UNLOCKED',
    state: 'OPEN',
    memo: 'Travel',
    spendLimit: 1000,
    spendLimitDuration: 'MONTHLY',
    fundingToken: 'fund_default',
    expMonth: '03',
    expYear: '2028',
    ...vault.protect(pan),
    pinHash: null,
    created: NOW,
  },
};
const given = (...events: CardEvent[]) => ({ [programStreamId(PROGRAM)]: program, [CARD_STREAM]: [cardCreated, ...events] });

describe('UpdateCardHandler', () => {
  const update = commandHandlerSpecification({ environment, seal, handler: (env) => new UpdateCardHandler(env, vault) });

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
      .given({ [CARD_STREAM]: [cardCreated] })
      .when((handler) => handler.execute(new UpdateCardCommand(origin, CARD, { fundingToken: 'fund_other' })))
      .thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});
