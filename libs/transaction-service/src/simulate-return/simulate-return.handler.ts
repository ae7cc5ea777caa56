import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomInt } from 'node:crypto';
import { SimulateReturnCommand, SimulationAccepted } from '@ledger/contracts';
import { cardDecider, cardStreamId, decideReturn, transactionDecider, transactionStreamId } from '@ledger/domain';
import { businessTime, decideAcrossStreams, emptyFold, FaultPoints, formatPosition, PipelineEnvironment } from '@ledger/event-store';
import { FAULT_POINTS, PIPELINE_ENVIRONMENT } from '@ledger/runtime';
import { CardLocator } from '../card-locator';

/**
 * A return is its own transaction, cleared at once, and gives its card the spend back: both streams
 * in one write (decideReturn). Lithic's credit authorizations take this way too, with their kind. The transaction token is the gateway's, like an authorization's.
 */
@CommandHandler(SimulateReturnCommand)
export class SimulateReturnHandler implements ICommandHandler<SimulateReturnCommand, SimulationAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly locator: CardLocator,
    @Inject(FAULT_POINTS) private readonly faults: FaultPoints,
  ) {}

  async execute({ origin, pan, amount, merchant, transactionToken, kind }: SimulateReturnCommand): Promise<SimulationAccepted> {
    const cardToken = await this.locator.cardTokenFor(pan, origin.programToken);
    const cardStream = cardStreamId(cardToken);
    const transactionStream = transactionStreamId(transactionToken);
    const presented = {
      cardToken,
      programToken: origin.programToken,
      transactionToken,
      eventToken: this.env.newId(),
      amount,
      merchant,
      merchantAmount: amount,
      merchantCurrency: 'USD',
      authorizationCode: String(randomInt(1_000_000)).padStart(6, '0'),
      // Only a credit names its kind: a plain return's events stay as they always were.
      ...(kind !== undefined ? { kind } : {}),
    };
    const outcome = await decideAcrossStreams(this.env, origin, cardStream, async (reader) => {
      const card = await reader.fold(cardDecider, cardStream);
      this.faults.reached('folds-loaded');
      const noTransaction = emptyFold(transactionDecider);
      const now = await businessTime(this.env, origin.programToken);
      const decided = decideReturn(presented, card.state, noTransaction.state, now);
      return {
        now,
        result: null,
        streams: [
          { streamId: transactionStream, folder: transactionDecider, fold: noTransaction, events: decided.transaction, mustBeNew: true },
          { streamId: cardStream, folder: cardDecider, fold: card, events: decided.card },
        ],
      };
    });
    this.faults.reached('decision-replied');
    return { transactionToken, result: 'APPROVED', position: outcome.position ? formatPosition(outcome.position) : null };
  }
}
