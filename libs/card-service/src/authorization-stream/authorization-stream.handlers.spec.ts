import { CardVault } from '@ledger/card-vault';
import { DisenrollAuthorizationStreamCommand, EnrollAuthorizationStreamCommand, RotateAuthorizationStreamSecretCommand } from '@ledger/contracts';
import { AuthorizationStreamNotEnrolled, EndpointUrlInvalid, EndpointUrlNotAllowed, ProgramNotFound, programStreamId, type ProgramEvent } from '@ledger/domain';
import { EgressGuard, EgressPolicy } from '@ledger/egress';
import { commandOrigin, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { scriptedResolver } from '@ledger/test-support';
import { DisenrollAuthorizationStreamHandler, EnrollAuthorizationStreamHandler, RotateAuthorizationStreamSecretHandler } from './authorization-stream.handlers';

const vault = new CardVault(Buffer.alloc(32, 7));
/** The production policy (public addresses only) with a resolver that answers as DNS would for these names. */
const egress = new EgressGuard(new EgressPolicy(), scriptedResolver({ 'auth.acme.example': [['93.184.216.34']], 'internal.acme.example': [['10.0.0.8']] }));

const PROGRAM = 'prog_acme';
const STREAM = programStreamId(PROGRAM);
const origin = commandOrigin(PROGRAM);
const program = programCreated({ programToken: PROGRAM, created: '2025-03-14T09:26:53.589Z' });
const SEALED_SECRET = vault.encrypt('whsec_enrolled');
const enrolled: ProgramEvent = { type: 'AuthorizationStreamEnrolled', data: { programToken: PROGRAM, url: 'https://auth.acme.example/asa', timeoutMs: 2000, secretSealed: SEALED_SECRET } };
const SEALED = /^v1\./;

describe('EnrollAuthorizationStreamHandler', () => {
  const enroll = ledgerHandlerSpecification({ handler: (env) => new EnrollAuthorizationStreamHandler(env, vault, egress) });

  it('enrolls the endpoint with a new secret, recorded sealed and answered in clear', async () => {
    const { result, recorded } = await enroll
      .given({ [STREAM]: [program] })
      .when((handler) => handler.execute(new EnrollAuthorizationStreamCommand(origin, 'https://auth.acme.example/asa', 1500)))
      .then({ [STREAM]: [{ type: 'AuthorizationStreamEnrolled', data: { programToken: PROGRAM, url: 'https://auth.acme.example/asa', timeoutMs: 1500, secretSealed: expect.stringMatching(SEALED) } }] });

    expect(result).toEqual({ url: 'https://auth.acme.example/asa', timeoutMs: 1500, secret: expect.stringMatching(/^whsec_/), position: expect.stringMatching(/^\d+\/\d+$/) });
    expect(vault.decrypt((recorded[0].data as { secretSealed: string }).secretSealed)).toBe(result.secret);
  });

  it('moving the endpoint keeps the secret, and enrolling it again as it is records nothing', async () => {
    const moved = await enroll
      .given({ [STREAM]: [program, enrolled] })
      .when((handler) => handler.execute(new EnrollAuthorizationStreamCommand(origin, 'https://93.184.216.34/asa', 2000)))
      .then({ [STREAM]: [{ type: 'AuthorizationStreamEnrolled', data: { programToken: PROGRAM, url: 'https://93.184.216.34/asa', timeoutMs: 2000, secretSealed: SEALED_SECRET } }] });
    const again = await enroll
      .given({ [STREAM]: [program, enrolled] })
      .when((handler) => handler.execute(new EnrollAuthorizationStreamCommand(origin, 'https://auth.acme.example/asa', 2000)))
      .then({});

    expect(moved.result.secret).toBe('whsec_enrolled');
    expect(again.result).toEqual({ url: 'https://auth.acme.example/asa', timeoutMs: 2000, secret: 'whsec_enrolled', position: expect.any(String) });
  });

  it('refuses a URL that is not http(s) or carries credentials, before asking where it leads', async () => {
    await enroll.given({ [STREAM]: [program] }).when((handler) => handler.execute(new EnrollAuthorizationStreamCommand(origin, 'ftp://auth.acme.example/asa', 1500))).thenThrows(EndpointUrlInvalid, { field: 'url' });
    await enroll
      .given({ [STREAM]: [program] })
      .when((handler) => handler.execute(new EnrollAuthorizationStreamCommand(origin, 'https://user:pw@auth.acme.example/asa', 1500)))
      .thenThrows(EndpointUrlInvalid, { message: 'url must not carry credentials (user:password@)' });
  });

  it('refuses a URL that leads to an internal address, literally or through its name', async () => {
    await enroll.given({ [STREAM]: [program] }).when((handler) => handler.execute(new EnrollAuthorizationStreamCommand(origin, 'http://127.0.0.1:8080/asa', 1500))).thenThrows(EndpointUrlNotAllowed, { field: 'url' });
    await enroll.given({ [STREAM]: [program] }).when((handler) => handler.execute(new EnrollAuthorizationStreamCommand(origin, 'https://internal.acme.example/asa', 1500))).thenThrows(EndpointUrlNotAllowed);
  });

  it('refuses a program that does not exist', async () => {
    await enroll.when((handler) => handler.execute(new EnrollAuthorizationStreamCommand(origin, 'https://auth.acme.example/asa', 1500))).thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});

describe('RotateAuthorizationStreamSecretHandler', () => {
  const rotate = ledgerHandlerSpecification({ handler: (env) => new RotateAuthorizationStreamSecretHandler(env, vault) });

  it('records a new sealed secret for the enrolled stream', async () => {
    const { result, recorded } = await rotate
      .given({ [STREAM]: [program, enrolled] })
      .when((handler) => handler.execute(new RotateAuthorizationStreamSecretCommand(origin)))
      .then({ [STREAM]: [{ type: 'AuthorizationStreamSecretRotated', data: { programToken: PROGRAM, secretSealed: expect.stringMatching(SEALED) } }] });

    expect(vault.decrypt((recorded[0].data as { secretSealed: string }).secretSealed)).toMatch(/^whsec_/);
    expect(vault.decrypt((recorded[0].data as { secretSealed: string }).secretSealed)).not.toBe('whsec_enrolled');
    expect(result).toEqual({ token: PROGRAM, position: expect.any(String) });
  });

  it('refuses when no stream is enrolled, a disenrolled one included', async () => {
    await rotate
      .given({ [STREAM]: [program, enrolled, { type: 'AuthorizationStreamDisenrolled', data: { programToken: PROGRAM } }] })
      .when((handler) => handler.execute(new RotateAuthorizationStreamSecretCommand(origin)))
      .thenThrows(AuthorizationStreamNotEnrolled);
  });

  it('refuses a program that does not exist', async () => {
    await rotate.when((handler) => handler.execute(new RotateAuthorizationStreamSecretCommand(origin))).thenThrows(ProgramNotFound);
  });
});

describe('DisenrollAuthorizationStreamHandler', () => {
  const disenroll = ledgerHandlerSpecification({ handler: (env) => new DisenrollAuthorizationStreamHandler(env) });

  it('records the disenrollment of the enrolled stream', async () => {
    await disenroll
      .given({ [STREAM]: [program, enrolled] })
      .when((handler) => handler.execute(new DisenrollAuthorizationStreamCommand(origin)))
      .then({ [STREAM]: [{ type: 'AuthorizationStreamDisenrolled', data: { programToken: PROGRAM } }] });
  });

  it('records nothing when no stream is enrolled', async () => {
    await disenroll.given({ [STREAM]: [program] }).when((handler) => handler.execute(new DisenrollAuthorizationStreamCommand(origin))).then({});
  });

  it('refuses a program that does not exist', async () => {
    await disenroll.when((handler) => handler.execute(new DisenrollAuthorizationStreamCommand(origin))).thenThrows(ProgramNotFound);
  });
});
