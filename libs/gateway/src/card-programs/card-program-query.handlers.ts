import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import { CardProgramResponse, GetCardProgramQuery, isoSeconds, ListCardProgramsQuery, Page } from '@ledger/contracts';
import { CARDHOLDER_CURRENCY, CardProgramNotFound, cardProgramTokenOf } from '@ledger/domain';
import type { Program, ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';
import { ownedRow } from '../listing/owned-row';
import { OLDEST_FIRST, tablePage } from '../listing/paging';

/** A program's one card program (card-program.ts), over the BIN the service issues on. */
function presentCardProgram(program: Program, bin: string): CardProgramResponse {
  return {
    token: cardProgramTokenOf(program.token),
    name: program.name,
    created: isoSeconds(program.created),
    pan_range_start: bin,
    pan_range_end: bin,
    account_level_management_enabled: false,
    cardholder_currency: CARDHOLDER_CURRENCY,
    settlement_currencies: [CARDHOLDER_CURRENCY],
  };
}

@QueryHandler(GetCardProgramQuery)
export class GetCardProgramHandler implements IQueryHandler<GetCardProgramQuery, CardProgramResponse> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly vault: CardVault,
  ) {}

  async execute({ programToken, cardProgramToken }: GetCardProgramQuery): Promise<CardProgramResponse> {
    const own = cardProgramToken === cardProgramTokenOf(programToken);
    const program = await ownedRow(own ? this.readModel.program.findUnique({ where: { token: programToken } }) : Promise.resolve(null), () => new CardProgramNotFound(cardProgramToken));
    return presentCardProgram(program, this.vault.binPrefix);
  }
}

/** A list of one, paged like every list, so a cursor naming any other token is refused. */
@QueryHandler(ListCardProgramsQuery)
export class ListCardProgramsHandler implements IQueryHandler<ListCardProgramsQuery, Page<CardProgramResponse>> {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    private readonly vault: CardVault,
  ) {}

  execute({ programToken, paging }: ListCardProgramsQuery): Promise<Page<CardProgramResponse>> {
    return tablePage(paging, this.readModel.program, {
      order: OLDEST_FIRST,
      noun: 'card program',
      where: { token: programToken },
      scope: { token: programToken },
      present: async (rows) => rows.map((row) => presentCardProgram(row, this.vault.binPrefix)),
    });
  }
}
