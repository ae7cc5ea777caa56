import { Body, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AdvanceDisputeRequest, CommandAccepted, type CommandOrigin, DecideDisputeCommand, DisputeResponse, DisputeTokenParam, presentDispute } from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';
import { WriteAcknowledger } from '../http/write-acknowledger';
import { ProgramDisputeReader } from './program-dispute-reader';

/**
 * The card network's side of a dispute, in the sandbox: Lithic moves cases by its own processes and
 * offers no simulation, so this route stands in for them (docs/decisions.md, "Disputes"). A move to
 * CASE_WON gives the amount back to the card in the same write.
 */
@ProgramApi('simulations (sandbox only)', 'v1/simulate/disputes', { errors: [404, 409], sandboxOnly: true })
export class DisputeSimulationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly disputes: ProgramDisputeReader,
    private readonly acknowledger: WriteAcknowledger,
  ) {}

  @Route('POST', ':dispute_token/advance', { summary: "Move a dispute to another stage, or end it (CASE_WON gives the amount back)", answers: DisputeResponse })
  async advance(@CallerOrigin() origin: CommandOrigin, @Param() { dispute_token }: DisputeTokenParam, @Body() body: AdvanceDisputeRequest): Promise<DisputeResponse> {
    const request = { type: 'AdvanceDispute', disputeToken: dispute_token, status: body.status, ...(body.resolution_reason === undefined ? {} : { resolutionReason: body.resolution_reason }) } as const;
    // A won case moved its transaction: the answer waits until the read models (balances) show it.
    await this.acknowledger.visible(await this.commands.execute<DecideDisputeCommand, CommandAccepted>(new DecideDisputeCommand(origin, request)));
    return presentDispute(await this.disputes.owned(origin.programToken, dispute_token));
  }
}
