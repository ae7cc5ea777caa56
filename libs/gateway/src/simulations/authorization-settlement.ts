import { Inject, Injectable, Logger } from '@nestjs/common';
import { ledgerCodec, CommandOrigin } from '@ledger/contracts';
import { TransactionEvent, transactionDecider, transactionStreamId, TransactionResult } from '@ledger/domain';
import { commandHandler, EventStore, formatPosition, type PipelineEnvironment } from '@ledger/event-store';
import { EVENT_STORE, LEDGER_CONFIG, LedgerConfig, PIPELINE_ENVIRONMENT } from '@ledger/runtime';

/** What stands under a failed authorization's token once it is settled. */
export type SettledAuthorization =
  | { readonly outcome: 'recorded'; readonly result: TransactionResult; readonly position: string }
  | { readonly outcome: 'withdrawn' }
  | { readonly outcome: 'unknown' };

const FIRST_RETRY_MS = 20;
const LONGEST_RETRY_MS = 500;

/**
 * Turns "the authorization failed somewhere" (database reply lost after the commit, a NATS timeout, a
 * crash of the card-service, any fault) into one of two certainties, by writing at the start of the
 * transaction's stream, the very place the decision's own atomic append writes its transaction's
 * first event:
 * - the withdrawal is recorded: the decision is not there and never will be (its append expects no
 *   stream and is refused; one still in flight holds the same row, so the withdrawal waits for it and
 *   then finds the stream taken);
 * - the stream is taken: the decision stands, and its first event says which.
 * Retried while the database cannot be reached, up to the read-your-writes timeout; past it, unknown.
 * Only where the decision and its transaction are one atomic write (PostgreSQL); on a store without
 * that, the card's decision can stand without its transaction yet, so nothing is withdrawn.
 */
@Injectable()
export class AuthorizationSettlement {
  private readonly logger = new Logger('AuthorizationSettlement');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  get possible(): boolean {
    return typeof this.store.appendAtomically === 'function';
  }

  async settle(origin: CommandOrigin, transactionToken: string): Promise<SettledAuthorization> {
    const streamId = transactionStreamId(transactionToken);
    const transaction = commandHandler(this.env, transactionDecider, streamId);
    const deadline = Date.now() + this.config.readYourWritesTimeoutMs;
    for (let wait = FIRST_RETRY_MS; ; wait = Math.min(LONGEST_RETRY_MS, wait * 2)) {
      try {
        // The domain decides: withdrawn when nothing stands under the token. A decision appended
        // meanwhile makes the write conflict, and the pipeline decides again on what now stands. A
        // withdrawal whose reply was lost is found on the next attempt as the stream's first event.
        const outcome = await transaction.handle({ type: 'WithdrawAuthorization', transactionToken, programToken: origin.programToken }, origin);
        return outcome.events.length > 0 ? { outcome: 'withdrawn' } : await this.standing(streamId);
      } catch (error) {
        if (Date.now() + wait > deadline) {
          this.logger.error({ request_id: origin.correlationId, msg: `authorization ${transactionToken}: could not settle: ${error instanceof Error ? error.message : String(error)}` });
          return { outcome: 'unknown' };
        }
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  /** The stream exists: its first event is the decision's transaction, or an earlier withdrawal of ours. */
  private async standing(streamId: string): Promise<SettledAuthorization> {
    const [first] = await this.store.readStream(streamId, { maxCount: 1 });
    const event = ledgerCodec<TransactionEvent>().decode(first);
    if (event.type === 'AuthorizationWithdrawn') return { outcome: 'withdrawn' };
    if (event.type !== 'TransactionAuthorized') throw new Error(`${streamId} opens with ${event.type}, not an authorization`);
    return { outcome: 'recorded', result: event.data.result, position: formatPosition(first.position) };
  }
}
