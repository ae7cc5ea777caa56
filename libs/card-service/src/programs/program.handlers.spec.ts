import { hashApiKey } from '@ledger/auth';
import { CreateProgramCommand, IssueApiKeyCommand, RevokeApiKeyCommand } from '@ledger/contracts';
import { ApiKeyNotFound, ProgramAlreadyExists, ProgramNotFound, programStreamId, type ProgramEvent } from '@ledger/domain';
import { commandOrigin, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { CreateProgramHandler, IssueApiKeyHandler, RevokeApiKeyHandler } from './program.handlers';

const PROGRAM = 'prog_acme';
const origin = commandOrigin(PROGRAM);
const created = '2025-03-14T09:26:53.589Z';
const existing: ProgramEvent[] = [
  programCreated({ programToken: PROGRAM, created }),
  { type: 'ApiKeyIssued', data: { programToken: PROGRAM, keyId: 'key_first', keyHash: hashApiKey('first-key'), created } },
];

describe('CreateProgramHandler', () => {
  const program = ledgerHandlerSpecification({ handler: (env) => new CreateProgramHandler(env) });

  it('opens the program stream with the program, its api-key (as a hash) and its default funding source', async () => {
    const { result } = await program
      .when((handler) => handler.execute(new CreateProgramCommand('corr-1', 'Acme', undefined, 'clear-key')))
      .then({
        [programStreamId(program.id(1))]: [
          { type: 'ProgramCreated', data: { programToken: program.id(1), name: 'Acme', created } },
          { type: 'ApiKeyIssued', data: { programToken: program.id(1), keyId: program.id(2), keyHash: hashApiKey('clear-key'), created } },
          {
            type: 'FundingSourceAdded',
            data: {
              programToken: program.id(1),
              fundingToken: program.id(3),
              type: 'DEPOSITORY_CHECKING',
              state: 'ENABLED',
              nickname: '',
              accountName: 'Acme checking',
              lastFour: expect.stringMatching(/^\d{4}$/),
              created,
              isDefault: true,
            },
          },
        ],
      });

    expect(result).toEqual({ programToken: program.id(1), apiKey: 'clear-key', keyId: program.id(2), position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it('takes the fixed token it is given (the sandbox program) and makes a key when none is given', async () => {
    const { result, recorded } = await program
      .when((handler) => handler.execute(new CreateProgramCommand('corr-1', 'Sandbox', PROGRAM)))
      .then({
        [programStreamId(PROGRAM)]: [
          { type: 'ProgramCreated', data: { programToken: PROGRAM, name: 'Sandbox', created } },
          { type: 'ApiKeyIssued', data: { programToken: PROGRAM, keyId: program.id(1), keyHash: expect.any(String), created } },
          { type: 'FundingSourceAdded', data: expect.objectContaining({ programToken: PROGRAM, fundingToken: program.id(2), isDefault: true }) },
        ],
      });

    expect(result).toMatchObject({ programToken: PROGRAM, keyId: program.id(1) });
    expect(recorded[1].data).toMatchObject({ keyHash: hashApiKey(result.apiKey) });
  });

  it('refuses a program token that is taken', async () => {
    await program
      .given({ [programStreamId(PROGRAM)]: existing })
      .when((handler) => handler.execute(new CreateProgramCommand('corr-1', 'Again', PROGRAM)))
      .thenThrows(ProgramAlreadyExists, { programToken: PROGRAM });
  });
});

describe('IssueApiKeyHandler', () => {
  const keys = ledgerHandlerSpecification({ handler: (env) => new IssueApiKeyHandler(env) });

  it('records the new key by its hash and answers it in clear once', async () => {
    const { result } = await keys
      .given({ [programStreamId(PROGRAM)]: existing })
      .when((handler) => handler.execute(new IssueApiKeyCommand(origin, 'second-key')))
      .then({ [programStreamId(PROGRAM)]: [{ type: 'ApiKeyIssued', data: { programToken: PROGRAM, keyId: keys.id(1), keyHash: hashApiKey('second-key'), created } }] });

    expect(result).toEqual({ programToken: PROGRAM, apiKey: 'second-key', keyId: keys.id(1), position: expect.any(String) });
  });

  it('refuses a program that does not exist', async () => {
    await keys.when((handler) => handler.execute(new IssueApiKeyCommand(origin, 'key'))).thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});

describe('RevokeApiKeyHandler', () => {
  const revoke = ledgerHandlerSpecification({ handler: (env) => new RevokeApiKeyHandler(env) });

  it('records the revocation of a key of the program', async () => {
    const { result } = await revoke
      .given({ [programStreamId(PROGRAM)]: existing })
      .when((handler) => handler.execute(new RevokeApiKeyCommand(origin, 'key_first')))
      .then({ [programStreamId(PROGRAM)]: [{ type: 'ApiKeyRevoked', data: { programToken: PROGRAM, keyId: 'key_first' } }] });

    expect(result).toEqual({ token: 'key_first', position: expect.any(String) });
  });

  it('refuses a key the program does not have, a revoked one included', async () => {
    await revoke
      .given({ [programStreamId(PROGRAM)]: [...existing, { type: 'ApiKeyRevoked', data: { programToken: PROGRAM, keyId: 'key_first' } }] })
      .when((handler) => handler.execute(new RevokeApiKeyCommand(origin, 'key_first')))
      .thenThrows(ApiKeyNotFound, { keyId: 'key_first' });
  });

  it('refuses a program that does not exist', async () => {
    await revoke.when((handler) => handler.execute(new RevokeApiKeyCommand(origin, 'key_first'))).thenThrows(ProgramNotFound);
  });
});
