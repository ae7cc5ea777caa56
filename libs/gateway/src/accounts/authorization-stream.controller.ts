import { Body, Inject } from '@nestjs/common';
import { CommandBus, IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import { CardVault } from '@ledger/card-vault';
import { AuthorizationStreamResponse, AuthorizationStreamSecretResponse, AuthorizationStreamSettings, CommandAccepted, CommandOrigin, DEFAULT_AUTH_STREAM_TIMEOUT_MS, DisenrollAuthorizationStreamCommand, EmptyModel, EnrollAuthorizationStreamCommand, EnrollAuthorizationStreamRequest, GetAuthorizationStreamQuery, RotateAuthorizationStreamSecretCommand } from '@ledger/contracts';
import { AuthorizationStreamNotEnrolled, programDecider, programStreamId } from '@ledger/domain';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';

/** The stream's settings live only on the program stream (the secret is sealed there), so read it. */
@QueryHandler(GetAuthorizationStreamQuery)
export class GetAuthorizationStreamHandler implements IQueryHandler<GetAuthorizationStreamQuery, AuthorizationStreamResponse> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  async execute({ programToken }: GetAuthorizationStreamQuery): Promise<AuthorizationStreamResponse> {
    const program = await commandHandler(this.env, programDecider, programStreamId(programToken)).state();
    const stream = program.status === 'active' ? program.authorizationStream : null;
    if (!stream) throw new AuthorizationStreamNotEnrolled();
    return { url: stream.url, timeout_ms: stream.timeoutMs, secret: this.vault.decrypt(stream.secretSealed) };
  }
}

/** The program's own authorization endpoint (issue 4's authorization stream), spec-silent. */
@ProgramApi('authorization stream', 'v1/auth_stream')
export class AuthorizationStreamController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  @Route('GET', '', { summary: 'The enrolled authorization endpoint, with its signing secret', answers: AuthorizationStreamResponse, errors: [404] })
  get(@CallingProgram() programToken: string): Promise<AuthorizationStreamResponse> {
    return this.queries.execute(new GetAuthorizationStreamQuery(programToken));
  }

  @Route('PUT', '', { summary: 'Enroll (or replace) the program\'s authorization endpoint', answers: AuthorizationStreamResponse, errors: [409] })
  async enroll(@CallerOrigin() origin: CommandOrigin, @Body() body: EnrollAuthorizationStreamRequest): Promise<AuthorizationStreamResponse> {
    const settings = await this.commands.execute<EnrollAuthorizationStreamCommand, AuthorizationStreamSettings>(
      new EnrollAuthorizationStreamCommand(origin, body.url, body.timeout_ms ?? DEFAULT_AUTH_STREAM_TIMEOUT_MS),
    );
    return { url: settings.url, timeout_ms: settings.timeoutMs, secret: settings.secret };
  }

  @Route('GET', 'secret', {
    summary: 'Lithic\'s auth_stream/secret: the secret the authorization requests are signed with',
    answers: AuthorizationStreamSecretResponse,
    errors: [404],
  })
  async secret(@CallingProgram() programToken: string): Promise<AuthorizationStreamSecretResponse> {
    const stream: AuthorizationStreamResponse = await this.queries.execute(new GetAuthorizationStreamQuery(programToken));
    return { secret: stream.secret };
  }

  /** An empty object, as every write here answers JSON; the SDK's rotateSecret reads nothing of it. */
  @Route('POST', 'secret/rotate', {
    summary: 'Lithic\'s auth_stream/secret/rotate: a new signing secret, used from the next authorization on',
    answers: EmptyModel,
    answerDescription: 'Rotated; read the new secret with GET /v1/auth_stream/secret',
    errors: [404],
  })
  async rotateSecret(@CallerOrigin() origin: CommandOrigin): Promise<Record<string, never>> {
    const accepted = await this.commands.execute<RotateAuthorizationStreamSecretCommand, CommandAccepted>(new RotateAuthorizationStreamSecretCommand(origin));
    await this.acknowledger.visible(accepted);
    return {};
  }

  @Route('DELETE', '', { summary: 'Disenroll the authorization endpoint', answers: EmptyModel, errors: [404, 409] })
  async disenroll(@CallerOrigin() origin: CommandOrigin): Promise<Record<string, never>> {
    const accepted = await this.commands.execute<DisenrollAuthorizationStreamCommand, CommandAccepted>(new DisenrollAuthorizationStreamCommand(origin));
    await this.acknowledger.visible(accepted);
    return {};
  }
}
