import { Logger } from '@nestjs/common';
import { decodeEvent, LedgerEvent, ledgerCodec } from '@ledger/contracts';
import { CardEvent, cardDecider, cardStreamId, transactionDecider, TransactionEvent, transactionStreamId } from '@ledger/domain';
import { CommandOrigin, GlobalPosition, handleCommand, loadState, PipelineEnvironment, RecordedEvent, restartingSubscription } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';

export const RECONCILER_CHECKPOINT = 'transaction-reconciler';

/**
 * Every simulated network event writes two streams, card and transaction, and no event store can
 * append both atomically. The simulate handlers write both in a safe order; this process replays the
 * log from its checkpoint and writes whatever the second half would have been, so a crash between the
 * two writes is repaired after a restart. Every step is idempotent, so doing it twice is harmless.
 */
export class TransactionReconciler {
  private readonly logger = new Logger(TransactionReconciler.name);
  private subscription: { stop(): Promise<void> } | null = null;

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
        return row ? { commit: row.commitPosition, prepare: row.preparePosition } : null;
      },
      // Large batches keep each first half and its second half together, so most need no read.
      batchSize: 2000,
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
    const decoded = events.map((recorded) => ({ recorded, event: decodeEvent(recorded) }));
    // Normally the handler wrote the second half right after the first, into the same stretch of the
    // log: then there is nothing to repair and nothing to read.
    const written = new Set(decoded.map(({ event, recorded }) => secondHalfKey(event, recorded)).filter((key) => key !== null));
    for (const { recorded, event } of decoded) {
      await this.waitUntilSettled(recorded);
      const needed = firstHalfKey(event, recorded);
      if (needed !== null && written.has(needed)) continue;
      await this.repair(event, recorded);
    }
    if (events.length > 0) await this.saveCheckpoint(events[events.length - 1].position);
  }

  private async repair(event: LedgerEvent, recorded: RecordedEvent): Promise<void> {
    const origin: CommandOrigin = {
      programToken: recorded.metadata.programToken,
      correlationId: recorded.metadata.correlationId,
      causationId: recorded.metadata.eventId,
    };
    switch (event.type) {
      case 'CardAuthorizationApproved':
        return this.recordAuthorization(origin, event.data, 'APPROVED');
      case 'CardAuthorizationDeclined': {
        const { reason, ...facts } = event.data;
        return this.recordAuthorization(origin, facts, reason);
      }
      case 'TransactionVoided':
      case 'TransactionCleared':
      case 'TransactionAdvised':
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

  private async recordAuthorization(origin: CommandOrigin, facts: Extract<CardEvent, { type: 'CardAuthorizationApproved' }>['data'], result: string): Promise<void> {
    await handleCommand(this.env, transactionDecider, ledgerCodec<TransactionEvent>(), transactionStreamId(facts.transactionToken), {
      type: 'RecordAuthorization',
      facts,
      result: result as 'APPROVED',
    }, origin);
  }

  /** The card counts the transaction's amount as it was right after this event. */
  private async adjustCard(origin: CommandOrigin, event: Extract<TransactionEvent, { type: 'TransactionVoided' | 'TransactionCleared' | 'TransactionAdvised' }>, version: number) {
    const streamId = transactionStreamId(event.data.transactionToken);
    const state = await loadState(this.env, transactionDecider, ledgerCodec<TransactionEvent>(), streamId, version);
    if (state.status === 'ABSENT') return;
    const cause = event.type === 'TransactionVoided' ? 'VOID' : event.type === 'TransactionCleared' ? 'CLEARING' : 'ADVICE';
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
    await handleCommand(this.env, cardDecider, ledgerCodec<CardEvent>(), cardStreamId(cardToken), command, origin);
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

/** The key of the write an event calls for on the other stream (null: it calls for none). */
function firstHalfKey(event: LedgerEvent, recorded: RecordedEvent): string | null {
  switch (event.type) {
    case 'CardAuthorizationApproved':
    case 'CardAuthorizationDeclined':
      return `authorization ${event.data.transactionToken}`;
    case 'TransactionVoided':
    case 'TransactionCleared':
    case 'TransactionAdvised':
      return `adjustment ${event.data.transactionToken} ${recorded.streamVersion}`;
    case 'TransactionReturned':
      return `return ${event.data.eventToken}`;
    default:
      return null;
  }
}

/** The key of the first half an event is the second half of (null: it is no second half). */
function secondHalfKey(event: LedgerEvent, recorded: RecordedEvent): string | null {
  switch (event.type) {
    case 'TransactionAuthorized':
      return recorded.streamVersion === 0 ? `authorization ${event.data.transactionToken}` : null;
    case 'CardSpendAdjusted':
      return `adjustment ${event.data.transactionToken} ${event.data.transactionVersion}`;
    case 'CardReturnCredited':
      return `return ${event.data.eventToken}`;
    default:
      return null;
  }
}
