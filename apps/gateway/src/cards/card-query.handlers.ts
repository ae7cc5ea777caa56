import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CardResponse, GetCardQuery, ListCardsQuery, Page } from '@ledger/contracts';
import { CardNotFound } from '@ledger/domain';
import type { Card, ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { createdBetween, OLDEST_FIRST, pageOf, pageWindow } from '../http/paging';
import { CardPresenter } from './card-presenter';

export async function presentCards(readModel: ReadModelClient, presenter: CardPresenter, cards: Card[]): Promise<CardResponse[]> {
  const fundingTokens = [...new Set(cards.map((card) => card.fundingToken))];
  const sources = await readModel.fundingSource.findMany({ where: { token: { in: fundingTokens } } });
  const byToken = new Map(sources.map((source) => [source.token, source]));
  return cards.map((card) => {
    const funding = byToken.get(card.fundingToken);
    if (!funding) throw new Error(`Card ${card.token} names funding source ${card.fundingToken}, which the read model lacks`);
    return presenter.card(card, funding);
  });
}

@QueryHandler(GetCardQuery)
export class GetCardHandler implements IQueryHandler<GetCardQuery, CardResponse> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly presenter: CardPresenter,
  ) {}

  async execute({ programToken, cardToken }: GetCardQuery): Promise<CardResponse> {
    const card = await this.readModel.card.findFirst({ where: { token: cardToken, programToken } });
    if (!card) throw new CardNotFound(cardToken);
    const [response] = await presentCards(this.readModel, this.presenter, [card]);
    return response;
  }
}

/** Oldest first, so page 2 of three cards with page_size 2 holds the third card created (spec 4.7). */
@QueryHandler(ListCardsQuery)
export class ListCardsHandler implements IQueryHandler<ListCardsQuery, Page<CardResponse>> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly presenter: CardPresenter,
  ) {}

  async execute({ programToken, filter, page, pageSize }: ListCardsQuery): Promise<Page<CardResponse>> {
    // An account is the program itself here: another account's token matches nothing.
    if (filter.accountToken !== undefined && filter.accountToken !== programToken) return pageOf([], page, pageSize, 0);
    const where = { programToken, created: createdBetween(filter) };
    const [total, cards] = await Promise.all([
      this.readModel.card.count({ where }),
      this.readModel.card.findMany({ where, orderBy: OLDEST_FIRST, ...pageWindow(page, pageSize) }),
    ]);
    return pageOf(await presentCards(this.readModel, this.presenter, cards), page, pageSize, total);
  }
}
