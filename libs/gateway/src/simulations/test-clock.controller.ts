import { Body, Inject } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import { AdvanceProgramClockCommand, CommandAccepted, CommandOrigin, ProgramClockResponse, SimulateClockAdvanceRequest, parseInstantParameter } from '@ledger/contracts';
import { programDecider, ProgramNotFound, programStreamId, programTime } from '@ledger/domain';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { ProgramApi, Route } from '../http/api-routes';
import { CallerOrigin } from '../http/command-origin';
import { WriteAcknowledger } from '../http/write-acknowledger';

/**
 * The sandbox test clock (Stripe's test clocks, one per program): moving it forward lets trailing
 * windows, the calendar year, velocity and card expiry be tested in seconds. It is read from the
 * program's own stream, so the answer is current the moment an advance is recorded.
 */
@ProgramApi('simulations (sandbox only)', 'v1/simulate/clock', { sandboxOnly: true })
export class TestClockController {
  constructor(
    private readonly commands: CommandBus,
    private readonly acknowledger: WriteAcknowledger,
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
  ) {}

  @Route('GET', '', { summary: "The calling program's test clock: its business time now, and its last advance", answers: ProgramClockResponse })
  clock(@CallingProgram() programToken: string): Promise<ProgramClockResponse> {
    return this.read(programToken);
  }

  @Route('POST', 'advance', {
    summary: "Move the calling program's clock forward to frozen_time; it keeps running from there. A time before the clock's now is 400: it never moves backwards",
    answers: ProgramClockResponse,
  })
  async advance(@CallerOrigin() origin: CommandOrigin, @Body() body: SimulateClockAdvanceRequest): Promise<ProgramClockResponse> {
    // The DTO has checked the form; the instant goes on in one UTC spelling.
    const frozenTime = (parseInstantParameter(body.frozen_time) as Date).toISOString();
    const accepted = await this.commands.execute<AdvanceProgramClockCommand, CommandAccepted>(new AdvanceProgramClockCommand(origin, frozenTime));
    return this.acknowledger.answer(accepted, () => this.read(origin.programToken));
  }

  private async read(programToken: string): Promise<ProgramClockResponse> {
    const program = await commandHandler(this.env, programDecider, programStreamId(programToken)).state();
    if (program.status === 'absent') throw new ProgramNotFound(programToken);
    const wall = this.env.now();
    return {
      now: programTime(program.clock, wall).toISOString(),
      wall_time: wall.toISOString(),
      frozen_time: program.clock?.frozenTime ?? null,
      advanced_at: program.clock?.advancedAt ?? null,
    };
  }
}
