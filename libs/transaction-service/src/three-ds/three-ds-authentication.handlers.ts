import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandAccepted, EnterThreeDSOtpCommand, RespondToThreeDSChallengeCommand, SimulateThreeDSAuthenticationCommand } from '@ledger/contracts';
import { threeDSAuthenticationDecider, threeDSAuthenticationStreamId } from '@ledger/domain';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';
import { CardLocator } from '../card-locator';

/**
 * Lithic's 3DS simulate: the card is found by its number, as a simulated authorization's is, and the
 * authentication opens a stream of its own under a token chosen here.
 */
@CommandHandler(SimulateThreeDSAuthenticationCommand)
export class SimulateThreeDSAuthenticationHandler implements ICommandHandler<SimulateThreeDSAuthenticationCommand, CommandAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly locator: CardLocator,
  ) {}

  async execute({ origin, pan, merchant, transaction, cardExpiryCheck }: SimulateThreeDSAuthenticationCommand): Promise<CommandAccepted> {
    const cardToken = await this.locator.cardTokenFor(pan, origin.programToken);
    const threeDSAuthenticationToken = this.env.newId();
    const outcome = await commandHandler(this.env, threeDSAuthenticationDecider, threeDSAuthenticationStreamId(threeDSAuthenticationToken)).handle(
      { type: 'SimulateThreeDSAuthentication', threeDSAuthenticationToken, cardToken, programToken: origin.programToken, merchant, amount: transaction.amount, currency: transaction.currency, cardExpiryCheck },
      origin,
    );
    return commandAccepted(threeDSAuthenticationToken, outcome);
  }
}

@CommandHandler(EnterThreeDSOtpCommand)
export class EnterThreeDSOtpHandler implements ICommandHandler<EnterThreeDSOtpCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, threeDSAuthenticationToken, otp }: EnterThreeDSOtpCommand): Promise<CommandAccepted> {
    const outcome = await commandHandler(this.env, threeDSAuthenticationDecider, threeDSAuthenticationStreamId(threeDSAuthenticationToken)).handle(
      { type: 'EnterThreeDSOtp', programToken: origin.programToken, threeDSAuthenticationToken, otp },
      origin,
    );
    return commandAccepted(threeDSAuthenticationToken, outcome);
  }
}

@CommandHandler(RespondToThreeDSChallengeCommand)
export class RespondToThreeDSChallengeHandler implements ICommandHandler<RespondToThreeDSChallengeCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, threeDSAuthenticationToken, response }: RespondToThreeDSChallengeCommand): Promise<CommandAccepted> {
    const outcome = await commandHandler(this.env, threeDSAuthenticationDecider, threeDSAuthenticationStreamId(threeDSAuthenticationToken)).handle(
      { type: 'RespondToThreeDSChallenge', programToken: origin.programToken, threeDSAuthenticationToken, response },
      origin,
    );
    return commandAccepted(threeDSAuthenticationToken, outcome);
  }
}
