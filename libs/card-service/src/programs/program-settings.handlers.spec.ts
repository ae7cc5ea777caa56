import { AddFundingSourceCommand, UpdateFundingSourceCommand, UpdateProgramSettingsCommand } from '@ledger/contracts';
import { FundingSourceNotFound, ProgramNotFound, programStreamId, type ProgramEvent } from '@ledger/domain';
import { commandOrigin, ledgerHandlerSpecification, programWithFundingSources } from '@ledger/runtime/test';
import { AddFundingSourceHandler, UpdateFundingSourceHandler, UpdateProgramSettingsHandler } from './program-settings.handlers';

const PROGRAM = 'prog_acme';
const STREAM = programStreamId(PROGRAM);
const origin = commandOrigin(PROGRAM);
const created = '2025-03-14T09:26:53.589Z';
const program = programWithFundingSources({ programToken: PROGRAM, created });

describe('UpdateProgramSettingsHandler', () => {
  const settings = ledgerHandlerSpecification({ handler: (env) => new UpdateProgramSettingsHandler(env) });

  it('records what changed, a partial spend limit merged with the current ones', async () => {
    const { result } = await settings
      .given({ [STREAM]: program })
      .when((handler) => handler.execute(new UpdateProgramSettingsCommand(origin, { state: 'PAUSED', spendLimits: { weekly: 50_000 }, velocityRule: { maxAuthorizations: 3, windowSeconds: 60 }, blockedMerchants: ['Casino'] })))
      .then({
        [STREAM]: [
          {
            type: 'ProgramSettingsChanged',
            data: {
              programToken: PROGRAM,
              state: 'PAUSED',
              spendLimits: { transaction: 0, weekly: 50_000, monthly: 0 },
              velocityRule: { maxAuthorizations: 3, windowSeconds: 60 },
              blockedMerchants: ['Casino'],
            },
          },
        ],
      });

    expect(result).toEqual({ token: PROGRAM, position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it('records only the settings that differ from the current ones, and nothing when none does', async () => {
    const paused: ProgramEvent = { type: 'ProgramSettingsChanged', data: { programToken: PROGRAM, state: 'PAUSED', velocityRule: { maxAuthorizations: 3, windowSeconds: 60 } } };
    await settings
      .given({ [STREAM]: [...program, paused] })
      .when((handler) => handler.execute(new UpdateProgramSettingsCommand(origin, { state: 'PAUSED', velocityRule: null })))
      .then({ [STREAM]: [{ type: 'ProgramSettingsChanged', data: { programToken: PROGRAM, velocityRule: null } }] });

    const { result } = await settings
      .given({ [STREAM]: [...program, paused] })
      .when((handler) => handler.execute(new UpdateProgramSettingsCommand(origin, { state: 'PAUSED', spendLimits: {} })))
      .then({});
    // Nothing new: the answer still carries the position of the program's last event, for read-your-writes.
    expect(result.position).toEqual(expect.stringMatching(/^\d+\/\d+$/));
  });

  it('refuses a program that does not exist', async () => {
    await settings.when((handler) => handler.execute(new UpdateProgramSettingsCommand(origin, { state: 'PAUSED' }))).thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});

describe('AddFundingSourceHandler', () => {
  const funding = ledgerHandlerSpecification({ handler: (env) => new AddFundingSourceHandler(env) });

  it('adds a source that keeps only the last four digits of the account number, with the defaults for what is not given', async () => {
    const { result } = await funding
      .given({ [STREAM]: program })
      .when((handler) => handler.execute(new AddFundingSourceCommand(origin, { accountName: 'Savings', accountNumber: '000123456789' })))
      .then({
        [STREAM]: [
          {
            type: 'FundingSourceAdded',
            data: { programToken: PROGRAM, fundingToken: funding.id(1), type: 'DEPOSITORY_CHECKING', state: 'ENABLED', nickname: '', accountName: 'Savings', lastFour: '6789', created, isDefault: false },
          },
        ],
      });

    expect(result).toEqual({ token: funding.id(1), position: expect.any(String) });
  });

  it('takes the type, state and nickname given', async () => {
    await funding
      .given({ [STREAM]: program })
      .when((handler) => handler.execute(new AddFundingSourceCommand(origin, { accountName: 'Card', type: 'CARD_DEBIT', state: 'PENDING', nickname: 'debit' })))
      .then({
        [STREAM]: [
          {
            type: 'FundingSourceAdded',
            data: { programToken: PROGRAM, fundingToken: funding.id(1), type: 'CARD_DEBIT', state: 'PENDING', nickname: 'debit', accountName: 'Card', lastFour: expect.stringMatching(/^\d{4}$/), created, isDefault: false },
          },
        ],
      });
  });

  it('refuses a program that does not exist', async () => {
    await funding.when((handler) => handler.execute(new AddFundingSourceCommand(origin, { accountName: 'Savings' }))).thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});

describe('UpdateFundingSourceHandler', () => {
  const funding = ledgerHandlerSpecification({ handler: (env) => new UpdateFundingSourceHandler(env) });

  it('records the changed state and nickname of one of the program\'s sources', async () => {
    const { result } = await funding
      .given({ [STREAM]: program })
      .when((handler) => handler.execute(new UpdateFundingSourceCommand(origin, 'fund_default', { state: 'DISCONNECTED', nickname: 'main' })))
      .then({ [STREAM]: [{ type: 'FundingSourceChanged', data: { programToken: PROGRAM, fundingToken: 'fund_default', state: 'DISCONNECTED', nickname: 'main' } }] });

    expect(result).toEqual({ token: 'fund_default', position: expect.any(String) });
  });

  it('records nothing when nothing changes', async () => {
    await funding
      .given({ [STREAM]: program })
      .when((handler) => handler.execute(new UpdateFundingSourceCommand(origin, 'fund_default', { state: 'ENABLED', nickname: '' })))
      .then({});
  });

  it('refuses a source the program does not have', async () => {
    await funding
      .given({ [STREAM]: program })
      .when((handler) => handler.execute(new UpdateFundingSourceCommand(origin, 'fund_other', { state: 'DELETED' })))
      .thenThrows(FundingSourceNotFound, { fundingToken: 'fund_other', field: 'funding_token' });
  });

  it('refuses a program that does not exist', async () => {
    await funding.when((handler) => handler.execute(new UpdateFundingSourceCommand(origin, 'fund_default', { state: 'DELETED' }))).thenThrows(ProgramNotFound);
  });
});
