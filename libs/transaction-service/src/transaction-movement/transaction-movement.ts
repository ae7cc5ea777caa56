import { Inject, Injectable } from '@nestjs/common';
import type { CommandOrigin, SimulationAccepted } from '@ledger/contracts';
import { cardDecider, cardStreamId, decideTransactionMovement, ownedTransaction, TransactionMovement, transactionDecider, transactionStreamId } from '@ledger/domain';
import { businessTime, commandHandler, decideAcrossStreams, FaultPoints, formatPosition, PipelineEnvironment } from '@ledger/event-store';
import { FAULT_POINTS, PIPELINE_ENVIRONMENT } from '@ledger/runtime';

/**
 * Void, expiry, clearing, advice and return reversal: the transaction moves and its card counts the new
 * amount, decided together (decideTransactionMovement) and written as one atomic write with the
 * version each stream was decided on. The card's commands queue in this process, so the write
 * rarely meets a concurrent authorization of the same card; when it does, it is decided again.
 */
@Injectable()
export class TransactionMovements {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    @Inject(FAULT_POINTS) private readonly faults: FaultPoints,
  ) {}

  async move(origin: CommandOrigin, movement: TransactionMovement): Promise<SimulationAccepted> {
    const transactionStream = transactionStreamId(movement.transactionToken);
    // The card is the transaction's for good: one read finds it, and warms the fold decided on below.
    const located = await commandHandler(this.env, transactionDecider, transactionStream).state();
    const cardStream = cardStreamId(ownedTransaction(located, movement.transactionToken, origin.programToken).cardToken);
    const outcome = await decideAcrossStreams(this.env, origin, cardStream, async (reader) => {
      const [transaction, card] = await Promise.all([reader.fold(transactionDecider, transactionStream), reader.fold(cardDecider, cardStream)]);
      this.faults.reached('folds-loaded');
      const now = await businessTime(this.env, origin.programToken);
      const decided = decideTransactionMovement(movement, transaction.state, transaction.version, card.state, now);
      return {
        now,
        result: null,
        streams: [
          { streamId: transactionStream, folder: transactionDecider, fold: transaction, events: decided.transaction },
          { streamId: cardStream, folder: cardDecider, fold: card, events: decided.card },
        ],
      };
    });
    this.faults.reached('decision-replied');
    return { transactionToken: movement.transactionToken, result: 'APPROVED', position: outcome.position ? formatPosition(outcome.position) : null };
  }
}
