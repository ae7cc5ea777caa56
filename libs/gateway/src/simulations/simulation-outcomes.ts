import { Inject, Injectable, Logger } from '@nestjs/common';
import { ledgerCodec, CommandOrigin } from '@ledger/contracts';
import { TransactionCommand, TransactionEvent, transactionDecider, transactionStreamId, TransactionResult } from '@ledger/domain';
import { commandHandler, EventStore, formatPosition, RecordedEvent, type PipelineEnvironment } from '@ledger/event-store';
import { RetryDelays } from '@ledger/retry';
import { EVENT_STORE, LEDGER_CONFIG, LedgerConfig, PIPELINE_ENVIRONMENT } from '@ledger/runtime';

/** What stands under a failed simulation's token once its outcome is known. */
export type SimulationOutcome =
  | { readonly outcome: 'recorded'; readonly result: TransactionResult; readonly position: string }
  | { readonly outcome: 'withdrawn' }
  | { readonly outcome: 'unknown' };

/** Which token of a transaction a failed simulation was writing under. */
export type SimulatedWrite =
  /** An authorization or a return: the first event of a new transaction stream. */
  | { readonly kind: 'opening'; readonly transactionToken: string }
  /** A void, clearing, advice or return reversal: one event on an existing transaction. */
  | { readonly kind: 'movement'; readonly transactionToken: string; readonly eventToken: string };

/** Waits between attempts while the database cannot be reached, up to the read-your-writes deadline. */
const WAITS = { firstMs: 20, longestMs: 500 };

/**
 * Turns "the simulation failed somewhere" (the database's reply lost after the commit, a NATS timeout,
 * a crash of the service, any fault) into one of two certainties, by writing on the transaction's
 * stream exactly where the simulation's own atomic write would go:
 * - the token is withdrawn (AuthorizationWithdrawn at a new stream's start, EventTokenWithdrawn
 *   at an existing one's head): the simulation's write, still in flight or decided again, finds the
 *   stream taken or moved on and is refused, so nothing of it will ever stand;
 * - or the token is already there: the simulation stands, and the stream says which result.
 * Retried while the database cannot be reached, up to the read-your-writes timeout; past it, unknown.
 */
@Injectable()
export class SimulationOutcomes {
  private readonly logger = new Logger('SimulationOutcomes');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  async resolve(origin: CommandOrigin, write: SimulatedWrite): Promise<SimulationOutcome> {
    const streamId = transactionStreamId(write.transactionToken);
    const transaction = commandHandler(this.env, transactionDecider, streamId);
    const withdrawal: TransactionCommand =
      write.kind === 'opening'
        ? { type: 'WithdrawAuthorization', transactionToken: write.transactionToken, programToken: origin.programToken }
        : { type: 'WithdrawEventToken', transactionToken: write.transactionToken, programToken: origin.programToken, eventToken: write.eventToken };
    const deadline = Date.now() + this.config.readYourWritesTimeoutMs;
    const waits = new RetryDelays(WAITS);
    for (;;) {
      const wait = waits.next();
      try {
        // The domain decides: withdrawn when nothing stands under the token. A write that lands
        // meanwhile makes this one conflict, and it is decided again on what now stands.
        const outcome = await transaction.handle(withdrawal, origin);
        return outcome.events.length > 0 ? { outcome: 'withdrawn' } : await this.standing(streamId, write);
      } catch (error) {
        if (Date.now() + wait > deadline) {
          this.logger.error({ request_id: origin.correlationId, msg: `transaction ${write.transactionToken}: outcome not found: ${error instanceof Error ? error.message : String(error)}` });
          return { outcome: 'unknown' };
        }
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** Nothing was withdrawn: the token's own event stands, or an earlier withdrawal of ours does. */
  private async standing(streamId: string, write: SimulatedWrite): Promise<SimulationOutcome> {
    const recorded = await this.store.readStream(streamId, write.kind === 'opening' ? { maxCount: 1 } : undefined);
    const codec = ledgerCodec<TransactionEvent>();
    for (const stored of recorded) {
      const event = codec.decode(stored);
      const outcome = write.kind === 'opening' ? openingOutcome(event, stored) : movementOutcome(event, stored, write.eventToken);
      if (outcome) return outcome;
    }
    // A movement on a transaction that does not exist: the simulation itself answers not found.
    return { outcome: 'withdrawn' };
  }
}

function openingOutcome(event: TransactionEvent, stored: RecordedEvent): SimulationOutcome {
  switch (event.type) {
    case 'AuthorizationWithdrawn':
      return { outcome: 'withdrawn' };
    case 'TransactionAuthorized':
      return { outcome: 'recorded', result: event.data.result, position: formatPosition(stored.position) };
    case 'TransactionReturned':
      return { outcome: 'recorded', result: 'APPROVED', position: formatPosition(stored.position) };
    default:
      throw new Error(`${stored.streamId} opens with ${event.type}`);
  }
}

function movementOutcome(event: TransactionEvent, stored: RecordedEvent, eventToken: string): SimulationOutcome | null {
  if (event.type === 'EventTokenWithdrawn') return event.data.eventToken === eventToken ? { outcome: 'withdrawn' } : null;
  const data = event.data as { eventToken?: string };
  return data.eventToken === eventToken ? { outcome: 'recorded', result: 'APPROVED', position: formatPosition(stored.position) } : null;
}
