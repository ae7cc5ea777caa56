/** Read-side questions the gateway asks of the read models. */
export class GetCardQuery {
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
      /** Inclusive, UTC midnight of the begin date. */
      readonly createdFrom?: Date;
      /** Exclusive, UTC midnight of the end date. */
      readonly createdBefore?: Date;
    },
    readonly page: number,
    readonly pageSize: number,
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
      readonly createdFrom?: Date;
      readonly createdBefore?: Date;
    },
    readonly page: number,
    readonly pageSize: number,
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

export class ListFundingSourcesQuery {
  constructor(readonly programToken: string) {}
}

export class GetAuthorizationStreamQuery {
  constructor(readonly programToken: string) {}
}
