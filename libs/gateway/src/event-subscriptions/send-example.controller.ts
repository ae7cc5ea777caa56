import { Body, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import { EmptyModel, EventSubscriptionTokenParam, SendExampleEventCommand, SendExampleRequest } from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';

/** Lithic's simulated example webhook: a copy of the program's latest event of the type, sent to one subscription. */
@ProgramApi('simulations (sandbox only)', 'v1/simulate/event_subscriptions', { sandboxOnly: true })
export class SendExampleController {
  constructor(private readonly commands: CommandBus) {}

  @Route('POST', ':event_subscription_token/send_example', {
    summary: "Send the subscription an example webhook: the program's latest event of the type",
    answers: EmptyModel,
    errors: [404],
  })
  async sendExample(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Body() body: SendExampleRequest,
  ): Promise<Record<string, never>> {
    await this.commands.execute(new SendExampleEventCommand(programToken, event_subscription_token, body.event_type ?? 'card.created'));
    return {};
  }
}
