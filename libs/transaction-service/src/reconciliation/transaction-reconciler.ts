import { Logger } from '@nestjs/common';
import { decodeEvent, LedgerEvent, CommandOrigin } from '@ledger/contracts';
import { CardEvent, cardDecider, cardStreamId, SpendAdjustmentCause, transactionDecider, TransactionEvent, transactionOpenedBy, transactionStreamId } from '@ledger/domain';
import { GlobalPosition, commandHandler, PipelineEnvironment, RecordedEvent } from '@ledger/event-store';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import { CATCH_UP_BATCH_SIZE, type LogProcessor, prismaTransactions, SubscriptionProcessor } from '@ledger/runtime';
import { DecodedEvent, UnmatchedFirstHalves } from './unmatched-first-halves';

export const RECONCILER_CHECKPOINT = 'transaction-reconciler';

/** The second half normally follows its first within a few events: look past a batch in small reads. */
const LOOK_PAST_STEP = 200;

/**
 * Every simulated network event writes two streams, card and transaction, and no event store can
 * append both atomically. The simulate handlers write both in a safe order; this process replays the
 * log from its checkpoint and writes whatever the second half would have been, so a crash between the
 * two writes is repaired after a restart. Every step is idempotent, so doing it twice is harmless.
 */
/** The transaction events after which the card counts a new amount, and why. */
type AdjustingEventType = 'TransactionVoided' | 'TransactionCleared' | 'TransactionAdvised' | 'TransactionReturnReversed';
const ADJUSTMENT_CAUSES: Record<AdjustingEventType, SpendAdjustmentCause> = {
  TransactionVoided: 'VOID',
  TransactionCleared: 'CLEARING',
  TransactionAdvised: 'ADVICE',
  TransactionReturnReversed: 'RETURN_REVERSAL',
};

export class TransactionReconciler implements LogProcessor<ReadModelTransaction> {
  readonly name = RECONCILER_CHECKPOINT;
  // Large batches keep each first half and its second half together, so most need no read.
  readonly batchSize = CATCH_UP_BATCH_SIZE;
  // Nobody waits on the reconciler: reading every few hundred milliseconds costs far fewer queries
  // under load than a read per commit.
  readonly gatherMs = 200;
  private readonly processor: SubscriptionProcessor<ReadModelTransaction>;
  private readonly unmatched = new UnmatchedFirstHalves();
  /** The position the next batch is read after. */
  private after: GlobalPosition | null = null;

  constructor(
    private readonly env: PipelineEnvironment,
    readModel: ReadModelClient,
    /** Events younger than this are left to the handler that is still writing them. */
    private readonly lagMs = 1000,
  ) {
    this.processor = new SubscriptionProcessor(env.store, prismaTransactions(readModel), this, { logger: new Logger(TransactionReconciler.name) });
  }

  start(): void {
    this.processor.start();
  }

  async stop(): Promise<void> {
    await this.processor.stop();
  }

  /** A (re)start reads again from the checkpoint, which lies before every first half still open. */
  resumed(after: GlobalPosition | null): void {
    this.unmatched.clear();
    this.after = after;
  }

  /** One batch; public so tests drive it directly. */
  async reconcile(events: readonly RecordedEvent[]): Promise<void> {
    await this.processor.process(events);
  }

  /**
   * Its repairs are appends through the event store, not writes of this transaction, which holds
   * only the checkpoint: the checkpoint lies before every first half still unmatched.
   */
  async apply(events: readonly RecordedEvent[]): Promise<GlobalPosition | null> {
    const decoded = events.map((recorded) => ({ recorded, event: decodeEvent(recorded) }));
    const end = events[events.length - 1].position;
    await this.repairAll(this.unmatched.take(decoded, this.after));
    this.after = end;
    if (events.length < this.batchSize && this.unmatched.size > 0) {
      // At the head of the log there is no next batch to carry these into: give their handlers the
      // lag, then look once past the batch for the second halves written meanwhile.
      await this.waitUntilSettled((this.unmatched.newest() as DecodedEvent).recorded);
      await this.lookPast(end);
      await this.repairAll(this.unmatched.drain());
    }
    return this.unmatched.resumeFrom(end);
  }

  /** Reads on past the batch, a little at a time, until every open first half is matched or a batch's worth is read. */
  private async lookPast(end: GlobalPosition): Promise<void> {
    let after = end;
    for (let read = 0; read < this.batchSize && this.unmatched.size > 0; ) {
      const next = await this.env.store.readAll({ after, maxCount: LOOK_PAST_STEP });
      this.unmatched.match(next.map((recorded) => ({ recorded, event: decodeEvent(recorded) })));
      if (next.length < LOOK_PAST_STEP) return;
      read += next.length;
      after = next[next.length - 1].position;
    }
  }

  private async repairAll(overdue: readonly DecodedEvent[]): Promise<void> {
    for (const { event, recorded } of overdue) {
      await this.waitUntilSettled(recorded);
      await this.repair(event, recorded);
    }
  }

  private async repair(event: LedgerEvent, recorded: RecordedEvent): Promise<void> {
    const origin: CommandOrigin = {
      programToken: recorded.metadata.programToken,
      correlationId: recorded.metadata.correlationId,
      causationId: recorded.metadata.eventId,
    };
    switch (event.type) {
      case 'CardAuthorizationApproved':
      case 'CardAuthorizationDeclined':
        return this.recordAuthorization(origin, event);
      case 'TransactionVoided':
      case 'TransactionCleared':
      case 'TransactionAdvised':
      case 'TransactionReturnReversed':
        return this.adjustCard(origin, event, recorded.streamVersion);
      case 'TransactionReturned':
        await this.onCard(origin, event.data.cardToken, {
          type: 'CreditReturn',
          cardToken: event.data.cardToken,
          transactionToken: event.data.transactionToken,
          eventToken: event.data.eventToken,
          amount: event.data.amount,
          at: event.data.at,
        });
        return;
      default:
        return;
    }
  }

  private async recordAuthorization(origin: CommandOrigin, decision: CardEvent): Promise<void> {
    const record = transactionOpenedBy(decision);
    if (!record) return;
    await commandHandler(this.env, transactionDecider, transactionStreamId(record.facts.transactionToken)).handle(record, origin);
  }

  /** The card counts the transaction's amount as it was right after this event. */
  private async adjustCard(
    origin: CommandOrigin,
    event: Extract<TransactionEvent, { type: AdjustingEventType }>,
    version: number,
  ) {
    const streamId = transactionStreamId(event.data.transactionToken);
    const state = await commandHandler(this.env, transactionDecider, streamId).state(version);
    if (state.status === 'ABSENT') return;
    const cause = ADJUSTMENT_CAUSES[event.type];
    await this.onCard(origin, state.cardToken, {
      type: 'AdjustSpend',
      cardToken: state.cardToken,
      transactionToken: event.data.transactionToken,
      transactionVersion: version,
      cause,
      amount: state.amount,
    });
  }

  private async onCard(origin: CommandOrigin, cardToken: string, command: Parameters<typeof cardDecider.decide>[0]): Promise<void> {
    await commandHandler(this.env, cardDecider, cardStreamId(cardToken)).handle(command, origin);
  }

  private async waitUntilSettled(recorded: RecordedEvent): Promise<void> {
    const age = this.env.now().getTime() - Date.parse(recorded.recordedAt);
    if (age < this.lagMs) await new Promise((resolve) => setTimeout(resolve, this.lagMs - age));
  }
}
