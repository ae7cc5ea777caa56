import { Body, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import {
  AuthorizationStreamResponse,
  AuthorizationStreamSettings,
  CommandAccepted,
  CommandOrigin,
  CreateResponderEndpointRequest,
  DisenrollAuthorizationStreamCommand,
  EmptyModel,
  EnrollAuthorizationStreamCommand,
  GetAuthorizationStreamQuery,
  ResponderEndpointEnrolledResponse,
  ResponderEndpointStatusResponse,
  ResponderEndpointTypeParams,
} from '@ledger/contracts';
import { AuthorizationStreamNotEnrolled } from '@ledger/domain';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';

/**
 * Lithic's responder endpoints over the one mechanism there is: AUTH_STREAM_ACCESS is the program's
 * authorization stream, enrolled, read and disenrolled by the same commands as /v1/auth_stream. The
 * other two types have nothing here that would ask them: they cannot be enrolled, so they are never
 * enrolled, and disenrolling them changes nothing (docs/decisions.md).
 */
@ProgramApi('responder endpoints', 'v1/responder_endpoints')
export class ResponderEndpointsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  /** Enrolls (or moves) the authorization stream; a stream enrolled before keeps its timeout and secret. */
  @Route('POST', '', { summary: 'Enroll a responder endpoint: AUTH_STREAM_ACCESS is the authorization stream', answers: ResponderEndpointEnrolledResponse })
  async create(@CallerOrigin() origin: CommandOrigin, @Body() body: CreateResponderEndpointRequest): Promise<ResponderEndpointEnrolledResponse> {
    await this.commands.execute<EnrollAuthorizationStreamCommand, AuthorizationStreamSettings>(new EnrollAuthorizationStreamCommand(origin, body.url, undefined));
    return { enrolled: true };
  }

  @Route('GET', '', { summary: 'Whether a responder endpoint of the type is enrolled, and where', answers: ResponderEndpointStatusResponse })
  async status(@CallingProgram() programToken: string, @Query() { type }: ResponderEndpointTypeParams): Promise<ResponderEndpointStatusResponse> {
    if (type !== 'AUTH_STREAM_ACCESS') return { enrolled: false, url: null };
    try {
      const stream: AuthorizationStreamResponse = await this.queries.execute(new GetAuthorizationStreamQuery(programToken));
      return { enrolled: true, url: stream.url };
    } catch (error) {
      if (error instanceof AuthorizationStreamNotEnrolled) return { enrolled: false, url: null };
      throw error;
    }
  }

  @Route('DELETE', '', { summary: 'Disenroll the responder endpoint of the type (nothing enrolled: nothing changes)', answers: EmptyModel })
  async delete(@CallerOrigin() origin: CommandOrigin, @Query() { type }: ResponderEndpointTypeParams): Promise<Record<string, never>> {
    if (type !== 'AUTH_STREAM_ACCESS') return {};
    const accepted = await this.commands.execute<DisenrollAuthorizationStreamCommand, CommandAccepted>(new DisenrollAuthorizationStreamCommand(origin));
    await this.acknowledger.visible(accepted);
    return {};
  }
}
