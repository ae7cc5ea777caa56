import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import { CardResponse, GetCardQuery, ListCardsQuery, Page, SearchCardByPanQuery } from '@ledger/contracts';
import { CardNotFound, InvalidInput, isValidCardNumber, NotFound } from '@ledger/domain';
import type { Card, FundingSource, ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { createdBetween, emptyPage, OLDEST_FIRST, tablePage } from '../listing/paging';
import { likeLiteral } from '../listing/like-literal';
import { ownedRow } from '../listing/owned-row';
import { CardPresenter } from './card-presenter';

/**
 * The cards with their funding sources. `known` are funding sources the caller has read already (a
 * transaction page reads its own): only the others cost a read, so a page usually needs none.
 */
export async function presentCards(readModel: ReadModelClient, presenter: CardPresenter, cards: Card[], known: readonly FundingSource[] = []): Promise<CardResponse[]> {
  const byToken = new Map(known.map((source) => [source.token, source]));
  const missing = [...new Set(cards.map((card) => card.fundingToken))].filter((token) => !byToken.has(token));
  if (missing.length > 0) for (const source of await readModel.fundingSource.findMany({ where: { token: { in: missing } } })) byToken.set(source.token, source);
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
    const card = await ownedRow(this.readModel.card.findFirst({ where: { token: cardToken, programToken } }), () => new CardNotFound(cardToken));
    const [response] = await presentCards(this.readModel, this.presenter, [card]);
    return response;
  }
}

/** A number no card of the calling program has: another program's card answers exactly the same. */
export class NoCardWithThisPan extends NotFound {
  constructor() {
    super('No card with this pan was found', 'pan');
  }
}

/**
 * Lithic's cards.searchByPan. The number is never looked up in the clear: its keyed hash (the
 * vault's lookup key) finds the card, and only among the calling program's, in one indexed query,
 * so a miss and another program's card cannot be told apart, by answer or by work done. A number
 * that fails its Luhn check is refused as the simulations refuse it.
 */
@QueryHandler(SearchCardByPanQuery)
export class SearchCardByPanHandler implements IQueryHandler<SearchCardByPanQuery, CardResponse> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly presenter: CardPresenter,
    private readonly vault: CardVault,
  ) {}

  async execute({ programToken, pan }: SearchCardByPanQuery): Promise<CardResponse> {
    if (!isValidCardNumber(pan)) throw new InvalidInput('pan is not a valid card number (its Luhn check digit is wrong)', 'pan');
    const card = await ownedRow(this.readModel.card.findFirst({ where: { panHash: this.vault.lookupHash(pan), programToken } }), () => new NoCardWithThisPan());
    const [response] = await presentCards(this.readModel, this.presenter, [card]);
    return response;
  }
}

/** Oldest first, so page 2 of three cards with page_size 2 holds the third card created (spec 4.7); cursors walk the same order. */
@QueryHandler(ListCardsQuery)
export class ListCardsHandler implements IQueryHandler<ListCardsQuery, Page<CardResponse>> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly presenter: CardPresenter,
  ) {}

  async execute({ programToken, filter, paging }: ListCardsQuery): Promise<Page<CardResponse>> {
    // An account is the program itself here: another account's token matches nothing.
    if (filter.accountToken !== undefined && filter.accountToken !== programToken) return emptyPage(paging);
    const where = {
      programToken,
      created: createdBetween(filter),
      ...(filter.state ? { state: filter.state } : {}),
      ...(filter.memoContains !== undefined ? { memo: { contains: likeLiteral(filter.memoContains), mode: 'insensitive' as const } } : {}),
    };
    return tablePage(paging, this.readModel.card, {
      order: OLDEST_FIRST,
      noun: 'card',
      where,
      scope: { programToken },
      present: (cards) => presentCards(this.readModel, this.presenter, cards),
    });
  }
}
