import { Body, Controller, Get, HttpCode, Inject, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CallingProgram } from '@ledger/auth';
import { AdvanceProgramClockCommand, CommandAccepted, ProgramClockResponse, SimulateClockAdvanceRequest, parseInstantParameter } from '@ledger/contracts';
import { programDecider, ProgramNotFound, programStreamId, programTime } from '@ledger/domain';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { ApiErrors } from '../http/openapi-models';
import { commandOrigin } from '../http/command-origin';
import { RequestWithId } from '../http/request-id';
import { SandboxOnlyGuard } from '../http/sandbox-only.guard';
import { WriteAcknowledger } from '../http/write-acknowledger';

export class ProgramClockModel implements ProgramClockResponse {
  @ApiProperty({ format: 'date-time', description: "Business time: what the program's spend windows, velocity rule, card expiry, platform limits and list filters read now" })
  now!: string;
  @ApiProperty({ format: 'date-time', description: 'The wall clock at the same moment (webhook signatures and rate limits use it)' })
  wall_time!: string;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'The instant the last advance set; null: never advanced, the clock is the wall clock' })
  frozen_time!: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description: 'Wall time of the last advance; null: never advanced' })
  advanced_at!: string | null;
}

/**
 * The sandbox test clock (Stripe's test clocks, one per program): moving it forward lets trailing
 * windows, the calendar year, velocity and card expiry be tested in seconds. It is read from the
 * program's own stream, so the answer is current the moment an advance is recorded.
 */
@ApiTags('simulations (sandbox only)')
@ApiSecurity('api-key')
@ApiErrors(400, 401)
@Controller('v1/simulate/clock')
@UseGuards(SandboxOnlyGuard, ApiKeyGuard)
export class TestClockController {
  constructor(
    private readonly commands: CommandBus,
    private readonly acknowledger: WriteAcknowledger,
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
  ) {}

  @Get()
  @ApiOperation({ summary: "The calling program's test clock: its business time now, and its last advance" })
  @ApiOkResponse({ type: ProgramClockModel })
  clock(@CallingProgram() programToken: string): Promise<ProgramClockResponse> {
    return this.read(programToken);
  }

  @Post('advance')
  @HttpCode(200)
  @ApiOperation({ summary: "Move the calling program's clock forward to frozen_time; it keeps running from there. A time before the clock's now is 400: it never moves backwards" })
  @ApiOkResponse({ type: ProgramClockModel })
  async advance(@CallingProgram() programToken: string, @Req() request: RequestWithId, @Body() body: SimulateClockAdvanceRequest): Promise<ProgramClockResponse> {
    // The DTO has checked the form; the instant goes on in one UTC spelling.
    const frozenTime = (parseInstantParameter(body.frozen_time) as Date).toISOString();
    const accepted = await this.commands.execute<AdvanceProgramClockCommand, CommandAccepted>(new AdvanceProgramClockCommand(commandOrigin(programToken, request), frozenTime));
    await this.acknowledger.visible(accepted);
    return this.read(programToken);
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
