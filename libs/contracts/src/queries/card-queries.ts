import type { PageRequest } from './page-request';
/** Read-side questions the gateway asks of the read models. */
export class GetCardQuery {
  constructor(
    readonly programToken: string,
    readonly cardToken: string,
  ) {}
}

/** Lithic's cards.searchByPan: the calling program's card with this number, looked up by the number's keyed hash. */
export class SearchCardByPanQuery {
  constructor(
    readonly programToken: string,
    readonly pan: string,
  ) {}
}

/** Lithic's card spend limits: the card's limit, what counts against it and what is left, now. */
export class GetCardSpendLimitsQuery {
  constructor(
    readonly programToken: string,
    readonly cardToken: string,
  ) {}
}

export class ListCardsQuery {
  constructor(
    readonly programToken: string,
    readonly filter: {
      readonly accountToken?: string;
      /** Inclusive: the begin instant, or the begin date's UTC midnight. */
      readonly createdFrom?: Date;
      /** Exclusive: the end instant, or the end date's UTC midnight. */
      readonly createdBefore?: Date;
      readonly state?: string;
      /** Cards whose memo contains this text, letter case ignored. */
      readonly memoContains?: string;
    },
    readonly paging: PageRequest,
  ) {}
}

export class ListProgramsQuery {}

export class ListTransactionsQuery {
  constructor(
    readonly programToken: string,
    readonly filter: {
      readonly accountToken?: string;
      readonly cardToken?: string;
      readonly result?: 'APPROVED' | 'DECLINED';
      readonly status?: string;
      readonly createdFrom?: Date;
      readonly createdBefore?: Date;
    },
    readonly paging: PageRequest,
  ) {}
}

export class GetTransactionQuery {
  constructor(
    readonly programToken: string,
    readonly transactionToken: string,
  ) {}
}

export class GetAccountQuery {
  constructor(
    readonly programToken: string,
    readonly accountToken: string,
  ) {}
}

/** Lithic's accounts.list: the one account a program has (itself), paged like every list. */
export class ListAccountsQuery {
  constructor(
    readonly programToken: string,
    readonly filter: { readonly createdFrom?: Date; readonly createdBefore?: Date },
    readonly paging: PageRequest,
  ) {}
}

/** Lithic's accounts.retrieveSpendLimits over the program's platform limits. */
export class GetAccountSpendLimitsQuery {
  constructor(
    readonly programToken: string,
    readonly accountToken: string,
  ) {}
}

/** The program's funding sources, oldest first. */
export class ListFundingSourcesQuery {
  constructor(
    readonly programToken: string,
    readonly paging: PageRequest,
  ) {}
}

export class GetFundingSourceQuery {
  constructor(
    readonly programToken: string,
    readonly fundingToken: string,
  ) {}
}

export class GetAuthorizationStreamQuery {
  constructor(readonly programToken: string) {}
}
