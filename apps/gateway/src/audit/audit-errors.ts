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
