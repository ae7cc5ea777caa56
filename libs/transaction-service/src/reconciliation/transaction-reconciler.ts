import { Logger } from '@nestjs/common';
import { decodeEvent, LedgerEvent, CommandOrigin } from '@ledger/contracts';
import { CardEvent, cardDecider, cardStreamId, SpendAdjustmentCause, transactionDecider, TransactionEvent, transactionOpenedBy, transactionStreamId } from '@ledger/domain';
import { GlobalPosition, commandHandler, PipelineEnvironment, RecordedEvent, restartingSubscription } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
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

export class TransactionReconciler {
  private readonly logger = new Logger(TransactionReconciler.name);
  private subscription: { stop(): Promise<void> } | null = null;
  private readonly unmatched = new UnmatchedFirstHalves();
  /** The position the next batch is read after. */
  private after: GlobalPosition | null = null;
  private readonly batchSize = 2000;

  constructor(
    private readonly env: PipelineEnvironment,
    private readonly readModel: ReadModelClient,
    /** Events younger than this are left to the handler that is still writing them. */
    private readonly lagMs = 1000,
  ) {}

  start(): void {
    this.subscription = restartingSubscription({
      store: this.env.store,
      checkpoint: async () => {
        const row = await this.readModel.projectorCheckpoint.findUnique({ where: { name: RECONCILER_CHECKPOINT } });
        // A (re)start reads again from the checkpoint, which lies before every first half still open.
        this.unmatched.clear();
        this.after = row ? { commit: row.commitPosition, prepare: row.preparePosition } : null;
        return this.after;
      },
      // Large batches keep each first half and its second half together, so most need no read.
      batchSize: this.batchSize,
      // Nobody waits on the reconciler: reading every few hundred milliseconds costs far fewer queries
      // under load than a read per commit.
      gatherMs: 200,
      handle: (events) => this.reconcile(events),
      onError: (error) => this.logger.error(`reconciliation interrupted, resuming from the checkpoint: ${String(error)}`),
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }

  async reconcile(events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
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
    const checkpoint = this.unmatched.resumeFrom(end);
    if (checkpoint) await this.saveCheckpoint(checkpoint);
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

  private async saveCheckpoint(position: GlobalPosition): Promise<void> {
    const row = { commitPosition: position.commit, preparePosition: position.prepare, updated: new Date() };
    await this.readModel.projectorCheckpoint.upsert({ where: { name: RECONCILER_CHECKPOINT }, create: { name: RECONCILER_CHECKPOINT, ...row }, update: row });
  }
}
