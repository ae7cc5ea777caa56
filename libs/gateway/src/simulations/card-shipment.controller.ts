import { Body, Param } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CardResponse, CardTokenParam, CommandAccepted, CommandOrigin, FulfillCardCommand, GetCardQuery, SimulateCardShipmentRequest } from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';
import { WriteAcknowledger } from '../http/write-acknowledger';

/**
 * The card manufacturer, simulated: Lithic ships plastics in a daily batch and offers no call to
 * hurry it, so the sandbox ships one card's ordered plastic when asked. A new card moves from
 * PENDING_FULFILLMENT to PENDING_ACTIVATION; a card.shipped webhook follows.
 */
@ProgramApi('simulations (sandbox only)', 'v1/simulate/cards', { errors: [404, 409], sandboxOnly: true })
export class CardShipmentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  @Route('POST', ':card_token/ship', { summary: "Ship the card's ordered plastic; answers the card", answers: CardResponse })
  async ship(@CallerOrigin() origin: CommandOrigin, @Param() { card_token }: CardTokenParam, @Body() body: SimulateCardShipmentRequest): Promise<CardResponse> {
    const command = { type: 'ShipCard' as const, cardToken: card_token, programToken: origin.programToken, trackingNumber: body.tracking_number };
    const accepted = await this.commands.execute<FulfillCardCommand, CommandAccepted>(new FulfillCardCommand(origin, command));
    return this.acknowledger.answer(accepted, () => this.queries.execute(new GetCardQuery(origin.programToken, accepted.token)));
  }
}
