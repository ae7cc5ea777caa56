import { TokenField } from './token-field';
import { DayOrInstantParameter, InstantParameter } from './query-parameters';
import { RESULT_FILTERS } from './simulate-requests';
import { PagedDateRangeParams } from './validation';
import { OneOfField } from './value-fields';

/** Lithic's account types a balance list may be filtered by; only ISSUING exists here, the others list nothing. */
export const BALANCE_ACCOUNT_TYPE_FILTERS = ['ISSUING', 'OPERATING', 'RESERVE', 'SECURITY'] as const;
export const FINANCIAL_ACCOUNT_TYPE_FILTERS = ['ISSUING', 'OPERATING', 'RESERVE', 'SECURITY', 'EARLY_DIRECT_DEPOSIT_FLOAT'] as const;
export const FINANCIAL_TRANSACTION_STATUS_FILTERS = ['DECLINED', 'EXPIRED', 'PENDING', 'RETURNED', 'SETTLED', 'VOIDED'] as const;
export const FINANCIAL_TRANSACTION_CATEGORY_FILTERS = ['ACH', 'CARD', 'INTERNAL', 'TRANSFER'] as const;

export class FinancialAccountTokenParam {
  @TokenField()
  financial_account_token!: string;
}

export class FinancialTransactionTokenParams {
  @TokenField()
  financial_account_token!: string;

  @TokenField()
  financial_transaction_token!: string;
}

export class CardFinancialTransactionTokenParams {
  @TokenField()
  card_token!: string;

  @TokenField()
  financial_transaction_token!: string;
}

/**
 * The balance routes' query. `balance_date` (Lithic's) and `as_of` (ours, as on cards and
 * transactions) name the same moment; both at once must agree. Lithic's last_transaction_event_token
 * is not taken.
 */
export class BalanceMomentParams {
  @DayOrInstantParameter({ description: "The balance as it was at this moment (a day: its UTC midnight), computed from the events; the latest when absent" })
  balance_date?: Date;

  @InstantParameter({ description: 'Time travel, as on cards and transactions: the same as balance_date' })
  as_of?: Date;
}

/** GET /v1/balances. */
export class ListBalancesParams extends BalanceMomentParams {
  @TokenField({ optional: true, description: "The program's token (an account here is the program); another lists nothing" })
  account_token?: string;

  @TokenField({ optional: true, description: 'No business accounts here: any token lists nothing' })
  business_account_token?: string;

  @OneOfField(BALANCE_ACCOUNT_TYPE_FILTERS, { optional: true })
  financial_account_type?: (typeof BALANCE_ACCOUNT_TYPE_FILTERS)[number];
}

/** GET /v1/financial_accounts. */
export class ListFinancialAccountsParams {
  @TokenField({ optional: true, description: "The program's token (an account here is the program); another lists nothing" })
  account_token?: string;

  @TokenField({ optional: true, description: 'No business accounts here: any token lists nothing' })
  business_account_token?: string;

  @OneOfField(FINANCIAL_ACCOUNT_TYPE_FILTERS, { optional: true })
  type?: (typeof FINANCIAL_ACCOUNT_TYPE_FILTERS)[number];
}

/** GET .../financial_transactions: Lithic's filters, paged by cursor (or page) like every list. */
export class ListFinancialTransactionsParams extends PagedDateRangeParams {
  @OneOfField(FINANCIAL_TRANSACTION_CATEGORY_FILTERS, { optional: true, description: 'Card transactions are CARD; the others list nothing' })
  category?: (typeof FINANCIAL_TRANSACTION_CATEGORY_FILTERS)[number];

  @OneOfField(RESULT_FILTERS, { optional: true, message: 'result must be APPROVED or DECLINED' })
  result?: (typeof RESULT_FILTERS)[number];

  @OneOfField(FINANCIAL_TRANSACTION_STATUS_FILTERS, { optional: true })
  status?: (typeof FINANCIAL_TRANSACTION_STATUS_FILTERS)[number];
}


export class StatementTokenParams {
  @TokenField()
  financial_account_token!: string;

  @TokenField()
  statement_token!: string;
}

/** GET /v1/financial_accounts/{token}/statements: by period start, paged by cursor like Lithic's (or page). */
export class ListStatementsParams extends PagedDateRangeParams {
  @OneOfField(['true', 'false'], { optional: true, description: 'false leaves the account\'s first (INITIAL) statement out; it is listed by default' })
  include_initial_statements?: 'true' | 'false';
}
