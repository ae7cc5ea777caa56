import { CardVault } from '@ledger/card-vault';
import { CreateCardCommand } from '@ledger/contracts';
import {
  CardStateNotAllowed,
  cardNumberStreamId,
  cardStreamId,
  ExpiryInThePast,
  FundingSourceNotFound,
  luhnCheckDigit,
  ProgramNotFound,
  programStreamId,
  type CreatableCardState,
  type ProgramEvent,
} from '@ledger/domain';
import { commandOrigin, ledgerHandlerSpecification, programWithFundingSources } from '@ledger/runtime/test';
import { CreateCardHandler } from './create-card.handler';

const vault = new CardVault(Buffer.alloc(32, 7));
const PROGRAM = 'prog_acme';
const origin = commandOrigin(PROGRAM);
const NOW = '2025-03-14T09:26:53.589Z';
const program = programWithFundingSources({ programToken: PROGRAM, created: NOW, fundingTokens: ['fund_default', 'fund_other'] });
const given = { [programStreamId(PROGRAM)]: program };

describe('CreateCardHandler', () => {
  const cards = ledgerHandlerSpecification({ handler: (env) => new CreateCardHandler(env, vault), now: new Date(NOW) });

  it('claims a new card number in the registry, then opens the card with it, sealed, on the default funding source', async () => {
    const cardToken = cards.id(1);
    const { result, recorded, writes } = await cards
      .given(given)
      .when((handler) => handler.execute(new CreateCardCommand(origin, { type: 'SINGLE_USE' })))
      .then([
        { streamId: expect.stringMatching(/^cardnumber-[0-9a-f]{64}$/), events: [{ type: 'CardNumberAssigned', data: { panHash: expect.any(String), cardToken, programToken: PROGRAM } }] },
        {
          streamId: cardStreamId(cardToken),
          events: [
            {
              type: 'CardCreated',
              data: {
                cardToken,
                programToken: PROGRAM,
                cardType: 'SINGLE_USE',
                state: 'OPEN',
                memo: '',
                spendLimit: 0,
                spendLimitDuration: 'TRANSACTION',
                fundingToken: 'fund_default',
                expMonth: '03',
                expYear: '2028',
                lastFour: expect.stringMatching(/^\d{4}$/),
                panHash: expect.any(String),
                panEncrypted: expect.stringMatching(/^v1\./),
                pinHash: null,
                created: NOW,
              },
            },
          ],
        },
      ]);

    expect(result).toEqual({ token: cardToken, position: expect.stringMatching(/^\d+\/\d+$/) });
    const [claim, card] = recorded.map((event) => event.data as { panHash: string; panEncrypted: string; lastFour: string });
    const pan = vault.decrypt(card.panEncrypted);
    expect(pan).toMatch(/^424242\d{10}$/);
    expect(Number(pan.slice(-1))).toBe(luhnCheckDigit(pan.slice(0, -1)));
    expect(card).toMatchObject({ lastFour: pan.slice(-4), panHash: vault.lookupHash(pan) });
    expect(claim.panHash).toBe(card.panHash);
    expect(recorded[0].streamId).toBe(cardNumberStreamId(card.panHash));
    // One write: the claim and the card stand together or not at all.
    expect(writes).toEqual([[cardNumberStreamId(card.panHash), cardStreamId(cardToken)]]);
  });

  it('takes what the command gives: state, memo, limit, funding source, expiry, and a PIN kept as a hash bound to the card', async () => {
    const cardToken = cards.id(1);
    const { recorded } = await cards
      .given(given)
      .when((handler) =>
        handler.execute(
          new CreateCardCommand(origin, {
            type: 'MERCHANT_LOCKED',
            state: 'PAUSED',
            memo: 'Groceries',
            spendLimit: 5000,
            spendLimitDuration: 'MONTHLY',
            fundingToken: 'fund_other',
            expiry: { month: '11', year: '2030' },
            pin: '1234',
          }),
        ),
      )
      .then([
        { streamId: expect.stringMatching(/^cardnumber-/), events: [expect.objectContaining({ type: 'CardNumberAssigned' })] },
        {
          streamId: cardStreamId(cardToken),
          events: [
            {
              type: 'CardCreated',
              data: expect.objectContaining({
                cardType: 'MERCHANT_LOCKED',
                state: 'PAUSED',
                memo: 'Groceries',
                spendLimit: 5000,
                spendLimitDuration: 'MONTHLY',
                fundingToken: 'fund_other',
                expMonth: '11',
                expYear: '2030',
                pinHash: vault.pinHash(cardToken, '1234'),
              }),
            },
          ],
        },
      ]);

    expect(JSON.stringify(recorded.map((event) => event.data))).not.toContain('"1234"');
  });

  it("decides on the program's business time: a test clock ahead dates the card and its generated expiry", async () => {
    const advanced: ProgramEvent = { type: 'ProgramClockAdvanced', data: { programToken: PROGRAM, offsetMs: 366 * 86_400_000, frozenTime: '2026-03-15T09:26:53.589Z', advancedAt: NOW } };
    await cards
      .given({ [programStreamId(PROGRAM)]: [...program, advanced] })
      .when((handler) => handler.execute(new CreateCardCommand(origin, { type: 'SINGLE_USE' })))
      .then([
        { streamId: expect.stringMatching(/^cardnumber-/), events: [expect.objectContaining({ type: 'CardNumberAssigned' })] },
        { streamId: cardStreamId(cards.id(1)), events: [{ type: 'CardCreated', data: expect.objectContaining({ created: '2026-03-15T09:26:53.589Z', expMonth: '03', expYear: '2029' }) }] },
      ]);
  });

  it('refuses a funding source the program does not have, claiming no number', async () => {
    await cards
      .given(given)
      .when((handler) => handler.execute(new CreateCardCommand(origin, { type: 'SINGLE_USE', fundingToken: 'fund_elsewhere' })))
      .thenThrows(FundingSourceNotFound, { fundingToken: 'fund_elsewhere' });
  });

  it('refuses a state a card cannot be created in, claiming no number', async () => {
    await cards
      .given(given)
      .when((handler) => handler.execute(new CreateCardCommand(origin, { type: 'SINGLE_USE', state: 'CLOSED' as CreatableCardState })))
      .thenThrows(CardStateNotAllowed, { field: 'state' });
  });

  it('refuses an expiry in the past of the program clock, claiming no number', async () => {
    await cards
      .given(given)
      .when((handler) => handler.execute(new CreateCardCommand(origin, { type: 'SINGLE_USE', expiry: { month: '02', year: '2025' } })))
      .thenThrows(ExpiryInThePast, { field: 'exp_year' });
  });

  it('refuses a program that does not exist', async () => {
    await cards.when((handler) => handler.execute(new CreateCardCommand(origin, { type: 'SINGLE_USE' }))).thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});
