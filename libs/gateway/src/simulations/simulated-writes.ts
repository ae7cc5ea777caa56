import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandOrigin, SimulationAccepted } from '@ledger/contracts';
import type { FaultPoints } from '@ledger/event-store';
import { FAULT_POINTS } from '@ledger/runtime';
import { mapError } from '../http/error-status';
import { SimulationNotRecorded, SimulationOutcomeUnknown } from './simulation-errors';
import { SimulatedWrite, SimulationOutcomes } from './simulation-outcomes';

/**
 * Runs a command that writes a card and its transaction (a simulation, or an expiry). A failure that
 * would answer 5xx is resolved first (SimulationOutcomes): a write that stands is answered as
 * recorded; otherwise its token is withdrawn and the 5xx says nothing stands. A 4xx (no such card,
 * invalid input) is decided before anything is written and passes as it is.
 */
@Injectable()
export class SimulatedWrites {
  private readonly logger = new Logger('SimulatedWrites');

  constructor(
    private readonly commands: CommandBus,
    private readonly outcomes: SimulationOutcomes,
    @Inject(FAULT_POINTS) private readonly faults: FaultPoints,
  ) {}

  /** `simulation` names the write in a 5xx's message ("the void was not recorded"). */
  async execute(simulation: string, origin: CommandOrigin, write: SimulatedWrite, command: object): Promise<SimulationAccepted> {
    try {
      const accepted = await this.commands.execute<object, SimulationAccepted>(command);
      this.faults.reached('gateway-answering');
      return accepted;
    } catch (error) {
      const mapped = mapError(error);
      if (mapped.status < 500) throw error;
      this.logger.warn({ request_id: origin.correlationId, msg: `simulation on transaction ${write.transactionToken} failed (${error instanceof Error ? error.message : String(error)}); finding its outcome` });
      const outcome = await this.outcomes.resolve(origin, write);
      if (outcome.outcome === 'recorded') return { transactionToken: write.transactionToken, result: outcome.result, position: outcome.position };
      if (outcome.outcome === 'withdrawn') throw new SimulationNotRecorded(simulation, mapped.message);
      throw new SimulationOutcomeUnknown(simulation, write.transactionToken);
    }
  }
}
