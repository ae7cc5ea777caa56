import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Put, Req, UseGuards } from '@nestjs/common';
import { CommandBus, IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CallingProgram } from '@ledger/auth';
import { CardVault } from '@ledger/card-vault';
import {
  AuthorizationStreamSettings,
  CommandAccepted,
  DEFAULT_AUTH_STREAM_TIMEOUT_MS,
  DisenrollAuthorizationStreamCommand,
  EnrollAuthorizationStreamCommand,
  EnrollAuthorizationStreamRequest,
  GetAuthorizationStreamQuery,
  RotateAuthorizationStreamSecretCommand,
} from '@ledger/contracts';
import { AuthorizationStreamNotEnrolled, programDecider, programStreamId } from '@ledger/domain';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { ApiErrors, AuthorizationStreamModel, AuthorizationStreamSecretModel, EmptyModel } from '../http/openapi-models';
import { commandOrigin } from '../http/command-origin';
import { RequestWithId } from '../http/request-id';

export interface AuthorizationStreamResponse {
  url: string;
  timeout_ms: number;
  secret: string;
}

/** Lithic's `auth_stream/secret` answer. */
export interface AuthorizationStreamSecretResponse {
  secret: string;
}

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
@ApiTags('authorization stream')
@ApiSecurity('api-key')
@ApiErrors(400, 401)
@Controller('v1/auth_stream')
@UseGuards(ApiKeyGuard)
export class AuthorizationStreamController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The enrolled authorization endpoint, with its signing secret' })
  @ApiOkResponse({ type: AuthorizationStreamModel })
  @ApiErrors(404)
  get(@CallingProgram() programToken: string): Promise<AuthorizationStreamResponse> {
    return this.queries.execute(new GetAuthorizationStreamQuery(programToken));
  }

  @Put()
  @ApiOperation({ summary: 'Enroll (or replace) the program\'s authorization endpoint' })
  @ApiOkResponse({ type: AuthorizationStreamModel })
  @ApiErrors(409)
  async enroll(@CallingProgram() programToken: string, @Req() request: RequestWithId, @Body() body: EnrollAuthorizationStreamRequest): Promise<AuthorizationStreamResponse> {
    const settings = await this.commands.execute<EnrollAuthorizationStreamCommand, AuthorizationStreamSettings>(
      new EnrollAuthorizationStreamCommand(commandOrigin(programToken, request), body.url, body.timeout_ms ?? DEFAULT_AUTH_STREAM_TIMEOUT_MS),
    );
    return { url: settings.url, timeout_ms: settings.timeoutMs, secret: settings.secret };
  }

  @Get('secret')
  @ApiOperation({ summary: 'Lithic\'s auth_stream/secret: the secret the authorization requests are signed with' })
  @ApiOkResponse({ type: AuthorizationStreamSecretModel })
  @ApiErrors(404)
  async secret(@CallingProgram() programToken: string): Promise<AuthorizationStreamSecretResponse> {
    const stream: AuthorizationStreamResponse = await this.queries.execute(new GetAuthorizationStreamQuery(programToken));
    return { secret: stream.secret };
  }

  /** An empty object, as every write here answers JSON; the SDK's rotateSecret reads nothing of it. */
  @Post('secret/rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Lithic\'s auth_stream/secret/rotate: a new signing secret, used from the next authorization on' })
  @ApiOkResponse({ type: EmptyModel, description: 'Rotated; read the new secret with GET /v1/auth_stream/secret' })
  @ApiErrors(404)
  async rotateSecret(@CallingProgram() programToken: string, @Req() request: RequestWithId): Promise<Record<string, never>> {
    const accepted = await this.commands.execute<RotateAuthorizationStreamSecretCommand, CommandAccepted>(new RotateAuthorizationStreamSecretCommand(commandOrigin(programToken, request)));
    await this.acknowledger.visible(accepted);
    return {};
  }

  @Delete()
  @ApiOperation({ summary: 'Disenroll the authorization endpoint' })
  @ApiOkResponse({ type: EmptyModel })
  @ApiErrors(404, 409)
  async disenroll(@CallingProgram() programToken: string, @Req() request: RequestWithId): Promise<Record<string, never>> {
    const accepted = await this.commands.execute<DisenrollAuthorizationStreamCommand, CommandAccepted>(new DisenrollAuthorizationStreamCommand(commandOrigin(programToken, request)));
    await this.acknowledger.visible(accepted);
    return {};
  }
}
