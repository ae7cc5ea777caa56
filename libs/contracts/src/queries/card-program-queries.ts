import type { PageRequest } from './page-request';

/** Lithic's cardPrograms.retrieve: the calling program's card program (any other token is not found). */
export class GetCardProgramQuery {
  constructor(
    readonly programToken: string,
    readonly cardProgramToken: string,
  ) {}
}

/** Lithic's cardPrograms.list: a list of one, the calling program's card program. */
export class ListCardProgramsQuery {
  constructor(
    readonly programToken: string,
    readonly paging: PageRequest,
  ) {}
}
