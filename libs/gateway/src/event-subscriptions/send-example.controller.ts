import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CallingProgram } from '@ledger/auth';
import { EventSubscriptionTokenParam, SendExampleEventCommand, SendExampleRequest } from '@ledger/contracts';
import { ApiErrors, EmptyModel } from '../http/openapi-models';
import { SandboxOnlyGuard } from '../http/sandbox-only.guard';

/** Lithic's simulated example webhook: a copy of the program's latest event of the type, sent to one subscription. */
@ApiTags('simulations (sandbox only)')
@ApiSecurity('api-key')
@ApiErrors(400, 401)
@Controller('v1/simulate/event_subscriptions')
@UseGuards(SandboxOnlyGuard, ApiKeyGuard)
export class SendExampleController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':event_subscription_token/send_example')
  @HttpCode(200)
  @ApiOperation({ summary: "Send the subscription an example webhook: the program's latest event of the type" })
  @ApiOkResponse({ type: EmptyModel })
  @ApiErrors(404)
  async sendExample(
    @CallingProgram() programToken: string,
    @Param() { event_subscription_token }: EventSubscriptionTokenParam,
    @Body() body: SendExampleRequest,
  ): Promise<Record<string, never>> {
    await this.commands.execute(new SendExampleEventCommand(programToken, event_subscription_token, body.event_type ?? 'card.created'));
    return {};
  }
}
