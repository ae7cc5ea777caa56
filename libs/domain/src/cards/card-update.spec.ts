import { foldEvents } from '../core/decider';
import { FundingSourceNotFound, programDecider, ProgramNotFound, type ProgramEvent } from '../programs/program';
import { cardCreated } from '../../test/card-fixtures';
import { cardToken, fundingToken, now, otherProgramToken, programToken } from '../../test/fixtures';
import { cardDecider, type UpdateCard } from './card';
import { CardNotFound } from './card-errors';
import { decideCardUpdate } from './card-update';

const at = now.toISOString();
const programEvents = [
  { type: 'ProgramCreated', data: { programToken, name: 'Sandbox', created: at } },
  { type: 'FundingSourceAdded', data: { programToken, fundingToken, type: 'DEPOSITORY_CHECKING', accountName: 'Checking', lastFour: '6789', nickname: '', state: 'ENABLED', created: at, isDefault: true } },
] as ProgramEvent[];
const program = foldEvents(programDecider, programEvents);
const card = foldEvents(cardDecider, [cardCreated()]);
const update = (changes: Partial<UpdateCard>): UpdateCard => ({ type: 'UpdateCard', cardToken, programToken, ...changes });

describe('decideCardUpdate: the card first, then the program for a funding source it names', () => {
  it('moves the card to a funding source of its program', () => {
    const savings = foldEvents(programDecider, [
      ...programEvents,
      { type: 'FundingSourceAdded', data: { programToken, fundingToken: 'savings', type: 'DEPOSITORY_SAVINGS', accountName: 'Savings', lastFour: '1111', nickname: '', state: 'ENABLED', created: at, isDefault: false } },
    ] as ProgramEvent[]);
    expect(decideCardUpdate(update({ fundingToken: 'savings' }), card, savings, now)).toEqual([{ type: 'CardDetailsChanged', data: { cardToken, fundingToken: 'savings' } }]);
  });

  it('refuses a funding source the program does not hold', () => {
    expect(() => decideCardUpdate(update({ fundingToken: 'elsewhere' }), card, program, now)).toThrow(FundingSourceNotFound);
  });

  it("answers a card that is not the program's as not found, whatever funding source the update names", () => {
    expect(() => decideCardUpdate(update({ programToken: otherProgramToken, fundingToken: 'elsewhere' }), card, program, now)).toThrow(CardNotFound);
    expect(() => decideCardUpdate(update({ fundingToken: 'elsewhere' }), cardDecider.initialState(), program, now)).toThrow(CardNotFound);
  });

  it('needs the program only when a funding source is named', () => {
    const absent = programDecider.initialState();
    expect(decideCardUpdate(update({ memo: 'rent' }), card, absent, now)).toEqual([{ type: 'CardDetailsChanged', data: { cardToken, memo: 'rent' } }]);
    expect(() => decideCardUpdate(update({ fundingToken }), card, absent, now)).toThrow(ProgramNotFound);
  });
});
