import { AdvanceProgramClockCommand } from '@ledger/contracts';
import { ClockCannotMoveBackwards, InvalidInput, ProgramNotFound, programStreamId, type ProgramEvent } from '@ledger/domain';
import { commandOrigin, ledgerHandlerSpecification, programCreated } from '@ledger/runtime/test';
import { AdvanceProgramClockHandler } from './program-clock.handler';

const PROGRAM = 'prog_acme';
const STREAM = programStreamId(PROGRAM);
const origin = commandOrigin(PROGRAM);
const WALL = '2025-03-14T09:26:53.589Z';
const program = programCreated({ programToken: PROGRAM, created: WALL });
const HOUR = 3_600_000;

describe('AdvanceProgramClockHandler', () => {
  const clock = ledgerHandlerSpecification({ handler: (env) => new AdvanceProgramClockHandler(env), now: new Date(WALL) });

  it('moves a program on the wall clock ahead: the offset from the wall clock, recorded on the program stream', async () => {
    const { result } = await clock
      .given({ [STREAM]: [program] })
      .when((handler) => handler.execute(new AdvanceProgramClockCommand(origin, '2025-03-14T10:26:53.589Z')))
      .then({ [STREAM]: [{ type: 'ProgramClockAdvanced', data: { programToken: PROGRAM, offsetMs: HOUR, frozenTime: '2025-03-14T10:26:53.589Z', advancedAt: WALL } }] });

    expect(result).toEqual({ token: PROGRAM, position: expect.stringMatching(/^\d+\/\d+$/) });
  });

  it('moves a clock already ahead from its own time, which it reads from the program stream', async () => {
    const aheadByAnHour: ProgramEvent = { type: 'ProgramClockAdvanced', data: { programToken: PROGRAM, offsetMs: HOUR, frozenTime: '2025-03-14T10:00:00.000Z', advancedAt: '2025-03-14T09:00:00.000Z' } };
    await clock
      .given({ [STREAM]: [program, aheadByAnHour] })
      .when((handler) => handler.execute(new AdvanceProgramClockCommand(origin, '2025-03-15T00:00:00.000Z')))
      .then({
        [STREAM]: [
          {
            type: 'ProgramClockAdvanced',
            data: { programToken: PROGRAM, offsetMs: Date.parse('2025-03-15T00:00:00.000Z') - Date.parse(WALL), frozenTime: '2025-03-15T00:00:00.000Z', advancedAt: WALL },
          },
        ],
      });
  });

  it('refuses to move the clock backwards: behind its business time, even if ahead of the wall clock', async () => {
    const aheadByAnHour: ProgramEvent = { type: 'ProgramClockAdvanced', data: { programToken: PROGRAM, offsetMs: HOUR, frozenTime: '2025-03-14T10:00:00.000Z', advancedAt: '2025-03-14T09:00:00.000Z' } };
    await clock
      .given({ [STREAM]: [program, aheadByAnHour] })
      .when((handler) => handler.execute(new AdvanceProgramClockCommand(origin, '2025-03-14T10:00:00.000Z')))
      .thenThrows(ClockCannotMoveBackwards, { frozenTime: '2025-03-14T10:00:00.000Z', programNow: '2025-03-14T10:26:53.589Z', field: 'frozen_time' });
  });

  it('refuses a time that is not an instant', async () => {
    await clock
      .given({ [STREAM]: [program] })
      .when((handler) => handler.execute(new AdvanceProgramClockCommand(origin, 'tomorrow')))
      .thenThrows(InvalidInput, { field: 'frozen_time' });
  });

  it('refuses a program that does not exist', async () => {
    await clock.when((handler) => handler.execute(new AdvanceProgramClockCommand(origin, '2030-01-01T00:00:00.000Z'))).thenThrows(ProgramNotFound, { programToken: PROGRAM });
  });
});
