import { chainEvents, InMemoryEventStore, type PipelineEnvironment } from '@ledger/event-store';
import { commandHandlerSpecification } from '@ledger/test-support';
import { ledgerPipelineEnvironment } from '../src/ledger-pipeline-environment';

export interface LedgerHandlerSetup<Handler> {
  /** The handler under test, constructed on the scenario's pipeline environment. */
  readonly handler: (environment: PipelineEnvironment) => Handler;
  /** The wall clock of every scenario, frozen; the specification's default when absent. */
  readonly now?: Date;
}

/**
 * The command-handler specification (test-support) on the pipeline environment the ledger's roles run
 * on, with an in-memory store of its own per scenario, and given streams sealed in the hash chain as the
 * pipeline seals what it appends. test-support cannot build these itself: it imports no lib.
 *
 *     const update = ledgerHandlerSpecification({ handler: (env) => new UpdateCardHandler(env, vault) });
 */
export function ledgerHandlerSpecification<Handler>({ handler, now }: LedgerHandlerSetup<Handler>) {
  return commandHandlerSpecification({
    environment: ({ now, newId }) => ledgerPipelineEnvironment({ store: new InMemoryEventStore({ now }), now, newId }),
    seal: (streamId: string, events: Parameters<typeof chainEvents>[2]) => chainEvents(streamId, null, events),
    handler,
    now,
  });
}
