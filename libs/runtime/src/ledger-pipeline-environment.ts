import { ledgerCodec } from '@ledger/contracts';
import { EventStore, FaultPoints, PipelineEnvironment, StreamFoldCache, StreamQueue } from '@ledger/event-store';
import { pipelineEnvironment } from './event-sourced-program-clock';

/** What differs from one ledger process (or spec) to another: the store, wall time, ids and test faults. */
export interface LedgerPipelineParts {
  readonly store: EventStore;
  readonly now: () => Date;
  readonly newId: () => string;
  readonly faults?: FaultPoints;
}

/**
 * The pipeline environment every role runs its commands in: the ledger's codec, a fold cache, a stream
 * queue and the programs' own clocks, on the parts given. One function, so the command handlers'
 * specs run on the composition production uses, with only the store, the clock and the ids swapped.
 */
export function ledgerPipelineEnvironment(parts: LedgerPipelineParts): PipelineEnvironment {
  return pipelineEnvironment({ ...parts, codec: ledgerCodec(), folds: new StreamFoldCache(), queue: new StreamQueue() });
}
