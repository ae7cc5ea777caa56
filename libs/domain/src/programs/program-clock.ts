import { InvalidInput } from '../core/domain-error';

/**
 * A program's clock: business time, which every time-dependent rule reads (spend windows, velocity,
 * expiry, program-wide limits, list filters). It is the wall clock until a sandbox test clock moves it
 * ahead; from then on it keeps running from where it was set, `offsetMs` ahead of the wall clock, so
 * events keep their order and lists their "oldest first". It never moves backwards.
 */
export interface ProgramClock {
  /** Business time minus wall time, in milliseconds; 0 or more. */
  readonly offsetMs: number;
  /** The instant the last advance set, UTC ISO 8601. */
  readonly frozenTime: string;
  /** When (wall time) the last advance was made, UTC ISO 8601. */
  readonly advancedAt: string;
}

export interface ProgramClockAdvanced {
  readonly type: 'ProgramClockAdvanced';
  readonly data: { readonly programToken: string } & ProgramClock;
}

export interface AdvanceProgramClock {
  readonly type: 'AdvanceProgramClock';
  readonly programToken: string;
  /** The instant to move the clock to, UTC ISO 8601. */
  readonly frozenTime: string;
}

export class ClockCannotMoveBackwards extends InvalidInput {
  static override readonly code = 'clock_cannot_move_backwards';
  constructor(
    readonly frozenTime: string,
    readonly programNow: string,
  ) {
    super(`frozen_time ${frozenTime} is before the program's clock (${programNow}); the clock never moves backwards`, 'frozen_time');
  }
}

/** The program's business time when the wall clock reads `wallNow`. */
export function programTime(clock: ProgramClock | null, wallNow: Date): Date {
  return clock ? new Date(wallNow.getTime() + clock.offsetMs) : wallNow;
}

/** The wall time at which the program's clock reads `businessNow` (the inverse of programTime). */
export function wallTimeAt(clock: ProgramClock | null, businessNow: Date): Date {
  return clock ? new Date(businessNow.getTime() - clock.offsetMs) : businessNow;
}

/**
 * Moves the clock to `frozenTime`. `now` is the program's own business time (what the decision
 * context carries), so the wall time of the advance, and with it the new offset, follow from the
 * current offset: nothing here reads a clock, and replay rebuilds the offset from the event alone.
 */
export function advanceClock(command: AdvanceProgramClock, clock: ProgramClock | null, now: Date): ProgramClockAdvanced[] {
  const target = new Date(command.frozenTime);
  if (Number.isNaN(target.getTime())) throw new InvalidInput('frozen_time must be an ISO 8601 instant', 'frozen_time');
  if (target.getTime() < now.getTime()) throw new ClockCannotMoveBackwards(target.toISOString(), now.toISOString());
  const wall = wallTimeAt(clock, now);
  return [
    {
      type: 'ProgramClockAdvanced',
      data: { programToken: command.programToken, offsetMs: target.getTime() - wall.getTime(), frozenTime: target.toISOString(), advancedAt: wall.toISOString() },
    },
  ];
}
