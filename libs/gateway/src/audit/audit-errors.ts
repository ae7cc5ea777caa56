import { ServiceUnavailableException } from '@nestjs/common';
import { InvalidInput, NotFound } from '@ledger/domain';

/** Also what another program's event answers: a program cannot learn that an event id exists elsewhere. */
export class AuditedEventNotFound extends NotFound {
  constructor(readonly eventId: string) {
    super(`Event ${eventId} not found`, 'event_id');
  }
}

/** A consistency range that runs backwards. */
export class BackwardsConsistencyRange extends InvalidInput {
  constructor(message: string, field: string) {
    super(message, field);
  }
}

/** LEDGER_COMMITMENT=off: this installation keeps no tree to sign or prove from. */
export class LedgerCommitmentOff extends ServiceUnavailableException {
  constructor() {
    super('The ledger-wide commitment is off in this installation (LEDGER_COMMITMENT=off)');
  }
}

/** A tree size the kept tree has not reached within the wait (it is still following the log, e.g. after a restart). */
export class LedgerCommitmentBehind extends ServiceUnavailableException {
  constructor(size: number, followed: number, waitedMs: number) {
    super(`The ledger-wide commitment holds ${followed} events and did not reach ${size} within ${waitedMs} ms; retry later`);
  }
}
