import { Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CallingProgram } from '@ledger/auth';
import { CardProgramPageModel, CardProgramResponse, CardProgramTokenParam, CursorPageParams, GetCardProgramQuery, ListCardProgramsQuery, Page } from '@ledger/contracts';
import { ProgramApi, Route } from '../http/api-routes';
import { pageRequest } from '../listing/paging';

/** Lithic's card programs: each program issues on one, whose token is the program's (docs/decisions.md). */
@ProgramApi('card programs', 'v1')
export class CardProgramsController {
  constructor(private readonly queries: QueryBus) {}

  @Route('GET', 'card_programs', { summary: "The calling program's card program: a list of one, paged like every list", answers: CardProgramPageModel })
  list(@CallingProgram() programToken: string, @Query() params: CursorPageParams): Promise<Page<CardProgramResponse>> {
    return this.queries.execute(new ListCardProgramsQuery(programToken, pageRequest(params)));
  }

  @Route('GET', 'card_programs/:card_program_token', { summary: "Get the program's card program", answers: CardProgramResponse, errors: [404] })
  get(@CallingProgram() programToken: string, @Param() { card_program_token }: CardProgramTokenParam): Promise<CardProgramResponse> {
    return this.queries.execute(new GetCardProgramQuery(programToken, card_program_token));
  }
}
