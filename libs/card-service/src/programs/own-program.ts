import type { CommandOrigin } from '@ledger/contracts';
import { programDecider, programStreamId, type Program, type ProgramCommand, type ProgramEvent } from '@ledger/domain';
import { commandHandler, type CommandOutcome, type PipelineEnvironment } from '@ledger/event-store';

/** A program command as a caller gives it: the program is always the caller's own. */
export type OwnProgramCommand = ProgramCommand extends infer Command ? (Command extends { readonly programToken: string } ? Omit<Command, 'programToken'> : never) : never;

/**
 * A command on the calling program's own stream (settings, funding sources, keys, the test clock,
 * the authorization stream): the program named by the origin, through the one command pipeline.
 */
export function onOwnProgram(env: PipelineEnvironment, origin: CommandOrigin, command: OwnProgramCommand): Promise<CommandOutcome<ProgramEvent, Program>> {
  return commandHandler(env, programDecider, programStreamId(origin.programToken)).handle({ ...command, programToken: origin.programToken } as ProgramCommand, origin);
}
