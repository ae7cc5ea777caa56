import fc from 'fast-check';
import { deciderSpecification } from '@ledger/test-support';
import { foldEvents } from '../core/decider';
import { InvalidInput } from '../core/domain-error';
import { cardDecider } from '../cards/card';
import { CardCreated, CardEvent } from '../cards/card-state';
import { AuthorizationChecks, AuthorizeSpend } from '../cards/card-authorization';
import type { DeclineReason } from '../transactions/transaction-values';
import { AdvanceProgramClock, ClockCannotMoveBackwards, ProgramClock, programTime, wallTimeAt } from './program-clock';
import { programDecider, ProgramEvent } from './program';
import { cardCreated, passingChecks } from '../../test/card-fixtures';
import { cardToken, coffeeShop, fundingToken, now, programToken } from '../../test/fixtures';

// ---------------------------------------------------------------- fixtures

const SECOND = 1000;
const DAY = 86_400 * SECOND;

/** The wall clock when the program was created and when each spec decides. */
const wall = now;
const later = (base: Date, ms: number) => new Date(base.getTime() + ms);

const programCreated: ProgramEvent = { type: 'ProgramCreated', data: { programToken, name: 'Sandbox', created: wall.toISOString() } };
const clockAdvanced = (clock: ProgramClock): ProgramEvent => ({ type: 'ProgramClockAdvanced', data: { programToken, ...clock } });
const advanceTo = (frozenTime: string): AdvanceProgramClock => ({ type: 'AdvanceProgramClock', programToken, frozenTime });

const clockAfter = (events: readonly ProgramEvent[]): ProgramClock | null => {
  const program = foldEvents(programDecider, events);
  if (program.status !== 'active') throw new Error('expected an existing program');
  return program.clock;
};

/** The program's business time at wall time `at`, after these program events. */
const businessTimeAfter = (events: readonly ProgramEvent[], at: Date): Date => programTime(clockAfter(events), at);

/**
 * Given these program events, the advance decided at wall time `at`, and its event folded in: what
 * the program's clock holds afterwards. The decision context carries business time, as the pipeline
 * gives it.
 */
const advancedAt = (given: readonly ProgramEvent[], frozenTime: string, at: Date): ProgramEvent[] => {
  const events = programDecider.decide(advanceTo(frozenTime), foldEvents(programDecider, given), { now: businessTimeAfter(given, at) });
  return [...given, ...events];
};

// ---------------------------------------------------------------- the clock itself

describe('program clock', () => {
  it('is the wall clock until it is advanced', () => {
    expect(clockAfter([programCreated])).toBeNull();
    expect(businessTimeAfter([programCreated], wall)).toEqual(wall);
  });

  it('moves to the frozen time, recording the offset from the wall clock and the wall time of the advance', () => {
    deciderSpecification(programDecider, { now: wall })
      .given([programCreated])
      .when(advanceTo('2026-12-22T10:15:30.000Z'))
      .then([clockAdvanced({ offsetMs: 30 * DAY, frozenTime: '2026-12-22T10:15:30.000Z', advancedAt: wall.toISOString() })]);
  });

  it('keeps running from the frozen time: an hour of wall time later it reads an hour past it', () => {
    const events = advancedAt([programCreated], '2027-01-01T00:00:00.000Z', wall);
    expect(businessTimeAfter(events, later(wall, 3600 * SECOND)).toISOString()).toBe('2027-01-01T01:00:00.000Z');
  });

  it('adds a second advance to the first: the new offset is from the wall clock, not from the last frozen time', () => {
    const once = advancedAt([programCreated], '2026-12-22T10:15:30.000Z', wall);
    const twice = advancedAt(once, '2027-02-01T00:00:00.000Z', later(wall, 10 * SECOND));
    expect(clockAfter(twice)).toEqual({
      offsetMs: Date.parse('2027-02-01T00:00:00.000Z') - later(wall, 10 * SECOND).getTime(),
      frozenTime: '2027-02-01T00:00:00.000Z',
      advancedAt: later(wall, 10 * SECOND).toISOString(),
    });
    expect(businessTimeAfter(twice, later(wall, 10 * SECOND)).toISOString()).toBe('2027-02-01T00:00:00.000Z');
  });

  it('accepts the program’s own now (moving by nothing)', () => {
    deciderSpecification(programDecider, { now: wall })
      .given([programCreated])
      .when(advanceTo(wall.toISOString()))
      .then([clockAdvanced({ offsetMs: 0, frozenTime: wall.toISOString(), advancedAt: wall.toISOString() })]);
  });

  describe('never moves backwards', () => {
    it('refuses a time before the wall clock', () => {
      deciderSpecification(programDecider, { now: wall }).given([programCreated]).when(advanceTo('2026-11-22T10:15:29.999Z')).thenThrows(ClockCannotMoveBackwards, /frozen_time/);
    });

    it('refuses a time after the wall clock but before the advanced clock: it compares with business time', () => {
      const advanced = advancedAt([programCreated], '2027-06-01T00:00:00.000Z', wall);
      const now = businessTimeAfter(advanced, later(wall, SECOND));
      deciderSpecification(programDecider, { now }).given(advanced).when(advanceTo('2027-05-31T23:59:59.999Z')).thenThrows(ClockCannotMoveBackwards);
    });

    it('is an invalid request naming frozen_time (a 400 at the edge)', () => {
      const refusal = new ClockCannotMoveBackwards('2026-01-01T00:00:00.000Z', wall.toISOString());
      expect(refusal).toBeInstanceOf(InvalidInput);
      expect(refusal.field).toBe('frozen_time');
    });

    it('never reads earlier, whatever sequence of advances (accepted or refused) and wall-clock ticks', () => {
      const step = fc.oneof(
        fc.record({ tick: fc.integer({ min: 0, max: 40 * DAY }) }),
        fc.record({ advanceBy: fc.integer({ min: -40 * DAY, max: 400 * DAY }) }),
      );
      fc.assert(
        fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
          let events: ProgramEvent[] = [programCreated];
          let at = wall;
          let last = businessTimeAfter(events, at);
          for (const taken of steps) {
            if ('tick' in taken) at = later(at, taken.tick);
            else {
              const target = later(businessTimeAfter(events, at), taken.advanceBy).toISOString();
              try {
                events = advancedAt(events, target, at);
              } catch (error) {
                if (!(error instanceof ClockCannotMoveBackwards) || taken.advanceBy >= 0) throw error;
              }
            }
            const now = businessTimeAfter(events, at);
            if (now.getTime() < last.getTime()) return false;
            last = now;
          }
          return true;
        }),
      );
    });
  });

  it('refuses a frozen_time that is not an instant', () => {
    deciderSpecification(programDecider, { now: wall }).given([programCreated]).when(advanceTo('next tuesday')).thenThrows(InvalidInput, /frozen_time/);
  });

  it('maps business time back to wall time exactly', () => {
    const clock = clockAfter(advancedAt([programCreated], '2030-03-31T12:00:00.000Z', wall));
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 * 365 * DAY }), (ms) => wallTimeAt(clock, programTime(clock, later(wall, ms))).getTime() === later(wall, ms).getTime()));
  });
});

// ---------------------------------------------------------------- the card's rules across an advance

/** A card of the program with a 1000-cent MONTHLY limit, created with the program. */
const monthlyCard = (overrides: Partial<CardCreated['data']> = {}): CardEvent => cardCreated({ spendLimitDuration: 'MONTHLY', created: wall.toISOString(), ...overrides });
const authorize = (transactionToken: string, amount: number, checks: Partial<AuthorizationChecks> = {}): AuthorizeSpend => ({
  type: 'AuthorizeSpend',
  facts: { cardToken, programToken, transactionToken, eventToken: `evt-${transactionToken}`, amount, merchant: coffeeShop, merchantAmount: amount, merchantCurrency: 'USD', authorizationCode: '654321' },
  checks: passingChecks(checks),
});
/** An approval decided at business time `at`, as the card records it. */
const approvedAt = (command: AuthorizeSpend, at: Date): CardEvent => ({ type: 'CardAuthorizationApproved', data: { ...command.facts, fundingToken, at: at.toISOString() } });
const declinedAt = (command: AuthorizeSpend, reason: DeclineReason, at: Date): CardEvent => ({
  type: 'CardAuthorizationDeclined',
  data: { ...command.facts, fundingToken, at: at.toISOString(), reason },
});

/**
 * Given the card's past, when this authorization is decided on the program's clock (after these
 * program events, at wall time `at`), then this is what the card records.
 */
const onTheProgramClock = (program: readonly ProgramEvent[], at: Date) => {
  const now = businessTimeAfter(program, at);
  return { now, spec: deciderSpecification(cardDecider, { now }) };
};

describe('card rules read the program clock', () => {
  /** Spent 900 of a 1000 limit at wall time: a second 500 is declined until the clock moves. */
  const spentAtCreation = (duration: CardCreated['data']['spendLimitDuration']) => [monthlyCard({ spendLimitDuration: duration }), approvedAt(authorize('txn-1', 900), wall)];
  const tenSecondsLater = later(wall, 10 * SECOND);
  /** `command` after `given`, decided at wall time with the program's clock advanced to `advancedTo`: approved, or declined for that reason. */
  const decidedWithClockAt = (advancedTo: string, given: readonly CardEvent[], command: AuthorizeSpend, outcome: 'approved' | DeclineReason) => {
    const { now, spec } = onTheProgramClock(advancedAt([programCreated], advancedTo, wall), wall);
    spec.given(given).when(command).then([outcome === 'approved' ? approvedAt(command, now) : declinedAt(command, outcome, now)]);
  };

  describe('MONTHLY (trailing month)', () => {
    it('still counts the spend before the clock moves', () => {
      const { now, spec } = onTheProgramClock([programCreated], tenSecondsLater);
      spec.given(spentAtCreation('MONTHLY')).when(authorize('txn-2', 500)).then([declinedAt(authorize('txn-2', 500), 'USER_TRANSACTION_LIMIT', now)]);
    });

    it('frees it once the clock has moved a calendar month and a millisecond past it', () => {
      decidedWithClockAt('2026-12-22T10:15:30.001Z', spentAtCreation('MONTHLY'), authorize('txn-2', 500), 'approved');
    });

    it('still counts it with the clock moved to exactly one calendar month later', () => {
      decidedWithClockAt('2026-12-22T10:15:30.000Z', spentAtCreation('MONTHLY'), authorize('txn-2', 500), 'USER_TRANSACTION_LIMIT');
    });

    it('counts spend made after the advance, at the advanced time, in the next window', () => {
      const program = advancedAt([programCreated], '2026-12-22T10:15:30.001Z', wall);
      const { now } = onTheProgramClock(program, wall);
      const afterAdvance = [...spentAtCreation('MONTHLY'), approvedAt(authorize('txn-2', 600), now)];
      const next = onTheProgramClock(program, tenSecondsLater);
      next.spec.given(afterAdvance).when(authorize('txn-3', 500)).then([declinedAt(authorize('txn-3', 500), 'USER_TRANSACTION_LIMIT', next.now)]);
    });
  });

  describe('ANNUALLY (calendar year)', () => {
    it('keeps counting until 1 January on the program clock, whatever the wall clock says', () => {
      decidedWithClockAt('2026-12-31T23:59:59.000Z', spentAtCreation('ANNUALLY'), authorize('txn-2', 500), 'USER_TRANSACTION_LIMIT');
    });

    it('frees the year’s spend once the clock reaches midnight UTC on 1 January', () => {
      decidedWithClockAt('2027-01-01T00:00:00.000Z', spentAtCreation('ANNUALLY'), authorize('txn-2', 500), 'approved');
    });

    it('reaches it by running on from an advance, too (the clock keeps running)', () => {
      const program = advancedAt([programCreated], '2026-12-31T23:59:59.000Z', wall);
      const { now, spec } = onTheProgramClock(program, later(wall, SECOND));
      expect(now.toISOString()).toBe('2027-01-01T00:00:00.000Z');
      spec.given(spentAtCreation('ANNUALLY')).when(authorize('txn-2', 500)).then([approvedAt(authorize('txn-2', 500), now)]);
    });
  });

  describe('velocity', () => {
    const rule = { velocity: { maxAuthorizations: 2, windowSeconds: 3600 } };
    const twoAttempts = [monthlyCard({ spendLimit: 0 }), approvedAt(authorize('txn-1', 10), wall), approvedAt(authorize('txn-2', 10), wall)];

    it('declines a third attempt within the hour on the program clock', () => {
      const { now, spec } = onTheProgramClock([programCreated], tenSecondsLater);
      spec.given(twoAttempts).when(authorize('txn-3', 10, rule)).then([declinedAt(authorize('txn-3', 10, rule), 'FRAUD_ADVICE', now)]);
    });

    it('lets it through once the clock has moved past the window, ten seconds of wall time later', () => {
      const program = advancedAt([programCreated], later(wall, 3601 * SECOND).toISOString(), wall);
      const { now, spec } = onTheProgramClock(program, tenSecondsLater);
      spec.given(twoAttempts).when(authorize('txn-3', 10, rule)).then([approvedAt(authorize('txn-3', 10, rule), now)]);
    });
  });

  describe('card expiry', () => {
    const expiring = [monthlyCard({ spendLimit: 0, expMonth: '12', expYear: '2026' })];

    it('approves through the last month of the expiry on the program clock', () => {
      decidedWithClockAt('2026-12-31T23:59:59.999Z', expiring, authorize('txn-1', 10), 'approved');
    });

    it('declines INVALID_CARD_DETAILS once the clock has moved past it, though the wall clock has not', () => {
      decidedWithClockAt('2027-01-01T00:00:00.000Z', expiring, authorize('txn-1', 10), 'INVALID_CARD_DETAILS');
    });
  });
});
