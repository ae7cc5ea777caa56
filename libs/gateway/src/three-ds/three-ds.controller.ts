import { Body, Param } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import {
  CommandAccepted,
  CommandOrigin,
  EmptyModel,
  GetThreeDSAuthenticationQuery,
  RespondToThreeDSChallengeCommand,
  ThreeDSAuthenticationResponse,
  ThreeDSAuthenticationTokenParam,
  ThreeDSChallengeResponseRequest,
} from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';

/**
 * Lithic's 3-D Secure authentications (`client.threeDS`) outside the sandbox's simulations: reading
 * one, and the program's answer to a challenge it ran out of band. An authentication is its own
 * stream, folded on each read, so a retrieve right after a write shows it.
 */
@ProgramApi('3-D Secure', 'v1')
export class ThreeDSController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Route('GET', 'three_ds_authentication/:three_ds_authentication_token', { summary: 'Get a 3DS authentication', answers: ThreeDSAuthenticationResponse, errors: [404] })
  get(@CallingProgram() programToken: string, @Param() { three_ds_authentication_token }: ThreeDSAuthenticationTokenParam): Promise<ThreeDSAuthenticationResponse> {
    return this.queries.execute(new GetThreeDSAuthenticationQuery(programToken, three_ds_authentication_token));
  }

  @Route('POST', 'three_ds_decisioning/challenge_response', {
    summary: "The cardholder's answer to a challenge the program ran out of band: APPROVE authenticates, DECLINE_BY_CUSTOMER declines",
    answers: EmptyModel,
    errors: [404, 409],
  })
  async challengeResponse(@CallerOrigin() origin: CommandOrigin, @Body() body: ThreeDSChallengeResponseRequest): Promise<EmptyModel> {
    await this.commands.execute<RespondToThreeDSChallengeCommand, CommandAccepted>(new RespondToThreeDSChallengeCommand(origin, body.token, body.challenge_response));
    return {};
  }
}
