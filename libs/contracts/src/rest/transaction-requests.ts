import { TokenField } from './token-field';
import { InstantParameter, IntegerParameter } from './query-parameters';
import { RESULT_FILTERS } from './simulate-requests';
import { TRANSACTION_STATUSES } from '@ledger/domain';
import { MAX_PAGE_SIZE, PagedDateRangeParams } from './validation';
import { OneOfField } from './value-fields';

/** Every status a transaction can have, Lithic's EXPIRED included. */
export const TRANSACTION_STATUS_FILTERS = TRANSACTION_STATUSES;
export type TransactionStatusFilter = (typeof TRANSACTION_STATUS_FILTERS)[number];

/**
 * Query of GET /v1/transactions (spec 4.8). The spec's table writes the names run together
 * (accounttoken, cardtoken, pagesize) and its prose with underscores: both are accepted.
 */
export class ListTransactionsParams extends PagedDateRangeParams {
  @TokenField({ optional: true })
  account_token?: string;

  @TokenField({ optional: true, description: 'Spec table spelling of account_token' })
  accounttoken?: string;

  @TokenField({ optional: true })
  card_token?: string;

  @TokenField({ optional: true, description: 'Spec table spelling of card_token' })
  cardtoken?: string;

  @InstantParameter({ description: 'Time travel: the transactions as they were at that moment' })
  as_of?: Date;

  @OneOfField(RESULT_FILTERS, { optional: true, message: 'result must be APPROVED or DECLINED' })
  result?: (typeof RESULT_FILTERS)[number];

  @OneOfField(TRANSACTION_STATUS_FILTERS, { optional: true, description: 'EXPIRED is Lithic\'s: an authorization that expired (expire_authorization)' })
  status?: TransactionStatusFilter;

  @IntegerParameter({ minimum: 1, maximum: MAX_PAGE_SIZE, description: 'Spec table spelling of page_size' })
  pagesize?: number;
}

export class TransactionTokenParam {
  @TokenField()
  transaction_token!: string;
}
