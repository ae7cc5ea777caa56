import { programDecider, programStreamId, programTime } from '@ledger/domain';
import { commandHandler, PipelineEnvironment, ProgramClock } from '@ledger/event-store';

/**
 * Each program's clock read from its own stream (`ProgramClockAdvanced`), through the pipeline's
 * fold cache: one read of the events after the cached fold, so an advance made by any process is
 * seen by the next decision anywhere. A program that is not there (yet) runs on the wall clock.
 */
export class EventSourcedProgramClock implements ProgramClock {
  constructor(private readonly env: Omit<PipelineEnvironment, 'clock'>) {}

  async now(programToken: string): Promise<Date> {
    const program = await commandHandler(this.env, programDecider, programStreamId(programToken)).state();
    return programTime(program.status === 'active' ? program.clock : null, this.env.now());
  }
}

/** The pipeline environment every role shares: the store, wall time, ids, folds, and the programs' clocks. */
export function pipelineEnvironment(base: Omit<PipelineEnvironment, 'clock'>): PipelineEnvironment {
  return { ...base, clock: new EventSourcedProgramClock(base) };
}
