import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomInt } from 'node:crypto';
import { AuthorizeCardSpendCommand, CardSpendDecision, SimulateAuthorizationCommand, SimulationAccepted } from '@ledger/contracts';
import { type CardholderAuthentication, cardholderAuthenticationFor, threeDSAuthenticationDecider, threeDSAuthenticationStreamId } from '@ledger/domain';
import { commandHandler, type FaultPoints, type PipelineEnvironment } from '@ledger/event-store';
import { FAULT_POINTS, PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { CardLocator } from '../card-locator';

/**
 * A simulated authorization: the card is found by its number here, and the card-service decides;
 * its decision and the transaction it opens are one write (AuthorizeCardSpendHandler). The answer's
 * position is that write's, so a read that must show the transaction waits for it. The transaction
 * token is the caller's (the gateway's): with it the gateway can find, or rule out, the decision when
 * this answer never reaches it.
 */
@CommandHandler(SimulateAuthorizationCommand)
export class SimulateAuthorizationHandler implements ICommandHandler<SimulateAuthorizationCommand, SimulationAccepted> {
  constructor(
    private readonly commands: CommandBus,
    private readonly locator: CardLocator,
    @Inject(FAULT_POINTS) private readonly faults: FaultPoints,
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
  ) {}

  async execute({ origin, authorization, transactionToken }: SimulateAuthorizationCommand): Promise<SimulationAccepted> {
    const cardToken = await this.locator.cardTokenFor(authorization.pan, origin.programToken);
    const cardholderAuthentication = authorization.threeDSAuthenticationToken === undefined ? undefined : await this.cardholderAuthentication(authorization.threeDSAuthenticationToken, cardToken, origin.programToken);
    const decision = await this.commands.execute<AuthorizeCardSpendCommand, CardSpendDecision>(
      new AuthorizeCardSpendCommand(origin, cardToken, {
        transactionToken,
        ...(authorization.tokenizationToken !== undefined ? { tokenizationToken: authorization.tokenizationToken } : {}),
        eventToken: this.env.newId(),
        authorizationCode: String(randomInt(1_000_000)).padStart(6, '0'),
        amount: authorization.amount,
        merchant: authorization.merchant,
        merchantAmount: authorization.merchantAmount,
        merchantCurrency: authorization.merchantCurrency,
        presented: authorization.presented,
        partialApprovalCapable: authorization.partialApprovalCapable,
        ...(authorization.kind !== undefined ? { kind: authorization.kind } : {}),
        ...(authorization.pos !== undefined ? { pos: authorization.pos } : {}),
        // Only an authorization that names a 3DS authentication carries one: every other is written as before.
        ...(cardholderAuthentication !== undefined ? { cardholderAuthentication } : {}),
      }),
    );
    this.faults.reached('decision-replied');
    return { transactionToken, result: decision.result, position: decision.position };
  }

  /**
   * The authentication as it stands when the authorization is made, copied into the authorization's
   * event: the transaction then shows it on replay without this stream, which is only read here.
   */
  private async cardholderAuthentication(token: string, cardToken: string, programToken: string): Promise<CardholderAuthentication> {
    const authentication = await commandHandler(this.env, threeDSAuthenticationDecider, threeDSAuthenticationStreamId(token)).state();
    return cardholderAuthenticationFor(authentication, token, cardToken, programToken);
  }
}
