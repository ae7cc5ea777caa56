import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CardSpendLimitsResponse, GetCardSpendLimitsQuery } from '@ledger/contracts';
import { cardDecider, CardNotFound, cardSpendLimitStanding, cardStreamId } from '@ledger/domain';
import { businessTime, commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT } from '@ledger/runtime';

/**
 * Read from the card's stream, not the read model: what counts against a limit (spend by
 * transaction, credits in event order) lives only in the card's state, and the domain's one rule
 * computes it, so the answer agrees with the next authorization's decision.
 */
@QueryHandler(GetCardSpendLimitsQuery)
export class GetCardSpendLimitsHandler implements IQueryHandler<GetCardSpendLimitsQuery, CardSpendLimitsResponse> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ programToken, cardToken }: GetCardSpendLimitsQuery): Promise<CardSpendLimitsResponse> {
    const card = await commandHandler(this.env, cardDecider, cardStreamId(cardToken)).state();
    if (card.status !== 'issued' || card.programToken !== programToken) throw new CardNotFound(cardToken);
    // The program's clock, as the next authorization's decision reads it (the test clock counts).
    const standing = cardSpendLimitStanding(card, await businessTime(this.env, programToken));
    if (!standing) return { available_spend_limit: {} };
    const { key, limit, spent, available } = standing;
    return { available_spend_limit: { [key]: Number(available) }, spend_limit: { [key]: limit }, spend_velocity: { [key]: spent } };
  }
}
