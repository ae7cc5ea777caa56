import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { listOf, pageOf } from './responses';

/**
 * Answers of the financial-account routes in Lithic's shapes. Balances are sums over any number of
 * transactions and may pass 2^53: they are bigint, written as exact digits (see BalanceModel).
 */

const ApiCents = (meaning: string) =>
  ApiProperty({
    type: 'integer',
    format: 'int64',
    description: `${meaning}, in cents. An exact int64 that may exceed 2^53: parse it with a big-integer-aware JSON reader, or lose the last digits`,
  });

@ApiSchema({ name: 'FinancialAccountModel' })
export class FinancialAccountResponse {
  @ApiProperty({ format: 'uuid', description: "Derived from the program's token: the same for the program's whole life" }) token!: string;
  @ApiProperty({ format: 'uuid', description: "The program's token (an account here is the program)" }) account_token!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: Object, nullable: true, description: 'Always null: no credit products' }) credit_configuration!: null;
  @ApiProperty() is_for_benefit_of!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Always null' }) nickname!: string | null;
  @ApiProperty({ enum: ['OPEN', 'SUSPENDED', 'CLOSED'], description: "By the program's state: ACTIVE is OPEN, PAUSED SUSPENDED, CLOSED CLOSED" }) status!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Always null' }) substatus!: string | null;
  @ApiProperty({ enum: ['ISSUING'] }) type!: string;
  @ApiProperty({ format: 'date-time' }) updated!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Always null' }) user_defined_status!: string | null;
}

/** One balance of /v1/cards/{card_token}/balances and /v1/financial_accounts/{token}/balances. */
@ApiSchema({ name: 'FinancialAccountBalanceModel' })
export class FinancialAccountBalanceResponse {
  @ApiProperty({ format: 'uuid', description: 'The financial account holding the balance' }) token!: string;
  @ApiProperty({ enum: ['ISSUING'] }) type!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiCents('Total less pending: negative once the cards spent more than came back') available_amount!: bigint;
  @ApiCents('Held by pending authorizations (a pending credit negative)') pending_amount!: bigint;
  @ApiCents('What cleared, from the account\'s side: clearings lower it, returns raise it') total_amount!: bigint;
  @ApiProperty({ format: 'date-time', description: 'When the account was created' }) created!: string;
  @ApiProperty({ format: 'date-time', description: 'When the last event counted occurred (the account\'s creation without one)' }) updated!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The transaction of the last event counted; null without one' }) last_transaction_token!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The last event counted; null without one' }) last_transaction_event_token!: string | null;
}

/** One balance of /v1/balances: the same figures with Lithic's names for that list. */
@ApiSchema({ name: 'BalanceEntryModel' })
export class BalanceEntryResponse {
  @ApiProperty({ format: 'uuid' }) financial_account_token!: string;
  @ApiProperty({ enum: ['ISSUING'] }) financial_account_type!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiCents('Total less pending') available_amount!: bigint;
  @ApiCents('Held by pending authorizations') pending_amount!: bigint;
  @ApiCents('What cleared, from the account\'s side') total_amount!: bigint;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ format: 'date-time' }) updated!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) last_transaction_token!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) last_transaction_event_token!: string | null;
}

@ApiSchema({ name: 'FinancialEventModel' })
export class FinancialEventModel {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ type: 'integer', description: 'Cents, always positive, as on the transaction\'s events' }) amount!: number;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ enum: ['APPROVED', 'DECLINED'] }) result!: string;
  @ApiProperty({ description: "Lithic's event type: a void is AUTHORIZATION_REVERSAL, every other type as on the transaction" }) type!: string;
}

/** A card transaction as Lithic's financial transaction: the same token, category CARD. */
@ApiSchema({ name: 'FinancialTransactionModel' })
export class FinancialTransactionResponse {
  @ApiProperty({ format: 'uuid', description: "The card transaction's token" }) token!: string;
  @ApiProperty({ enum: ['CARD'] }) category!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ description: "The merchant's descriptor" }) descriptor!: string;
  @ApiProperty({ type: [FinancialEventModel] }) events!: FinancialEventModel[];
  @ApiProperty({ type: 'integer', description: 'What the transaction holds while PENDING, in cents (negative for a pending credit)' }) pending_amount!: number;
  @ApiProperty({ enum: ['APPROVED', 'DECLINED'] }) result!: string;
  @ApiProperty({ type: 'integer', description: 'What it moved once cleared, in cents (negative for money back); 0 once bounced' }) settled_amount!: number;
  @ApiProperty({ enum: ['DECLINED', 'EXPIRED', 'PENDING', 'RETURNED', 'SETTLED', 'VOIDED'], description: 'SETTLING and SETTLED are SETTLED; BOUNCED is RETURNED' }) status!: string;
  @ApiProperty({ format: 'date-time' }) updated!: string;
}

/** Lithic's SinglePage lists: every item in `data`, `has_more` false unless paged by cursor. */
export const FinancialAccountListModel = listOf(FinancialAccountResponse, 'FinancialAccountList');
export const FinancialAccountBalanceListModel = listOf(FinancialAccountBalanceResponse, 'FinancialAccountBalanceList');
export const BalanceEntryListModel = listOf(BalanceEntryResponse, 'BalanceEntryList');
export const FinancialTransactionPageModel = pageOf(FinancialTransactionResponse, 'FinancialTransactionPage');

/** Lithic's statement totals: card spending is `purchases` and `debits`, money back `credits`; the rest is 0 (no credit products). */
export class StatementTotalsModel {
  @ApiCents('Always 0') balance_transfers!: bigint;
  @ApiCents('Always 0') cash_advances!: bigint;
  @ApiCents('Money back: returns, credits, bounced settlements') credits!: bigint;
  @ApiCents('Money out: clearings and financial authorizations') debits!: bigint;
  @ApiCents('Always 0') fees!: bigint;
  @ApiCents('Always 0') interest!: bigint;
  @ApiCents('Always 0') payments!: bigint;
  @ApiCents('Card spending, the same as debits') purchases!: bigint;
}

export class StatementAccountStateModel {
  @ApiProperty({ enum: ['OPEN', 'SUSPENDED', 'CLOSED'] }) status!: string;
  @ApiProperty({ type: String, nullable: true }) substatus!: string | null;
}

export class StatementAccountStandingModel {
  @ApiProperty({ type: 'integer' }) consecutive_full_payments_made!: number;
  @ApiProperty({ type: 'integer' }) consecutive_minimum_payments_made!: number;
  @ApiProperty({ type: 'integer' }) consecutive_minimum_payments_missed!: number;
  @ApiProperty({ type: 'integer' }) days_past_due!: number;
  @ApiProperty({ type: StatementAccountStateModel }) financial_account_state!: StatementAccountStateModel;
  @ApiProperty() has_grace!: boolean;
  @ApiProperty({ type: 'integer', description: 'The statement\'s number, 1 for the INITIAL one' }) period_number!: number;
  @ApiProperty({ enum: ['STANDARD'] }) period_state!: string;
}

export class StatementAmountDueModel {
  @ApiProperty({ type: 'integer', description: 'Always 0: nothing is lent' }) amount!: number;
  @ApiProperty({ type: 'integer', description: 'Always 0' }) past_due!: number;
}

/** A calendar month of the account (UTC), once ended: its balances at start and end and what moved them. */
@ApiSchema({ name: 'StatementModel' })
export class StatementResponse {
  @ApiProperty({ format: 'uuid', description: 'Derived from the account and the period' }) token!: string;
  @ApiProperty({ type: StatementAccountStandingModel }) account_standing!: StatementAccountStandingModel;
  @ApiProperty({ type: StatementAmountDueModel }) amount_due!: StatementAmountDueModel;
  @ApiProperty({ type: 'integer', description: 'Always 0: no credit products' }) available_credit!: number;
  @ApiProperty({ format: 'date-time', description: 'The period\'s end' }) created!: string;
  @ApiProperty({ type: 'integer', description: 'Always 0' }) credit_limit!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Always null' }) credit_product_token!: string | null;
  @ApiProperty({ type: 'integer' }) days_in_billing_cycle!: number;
  @ApiCents('The total balance at the period\'s end: starting_balance plus the line items') ending_balance!: bigint;
  @ApiProperty({ format: 'uuid' }) financial_account_token!: string;
  @ApiProperty({ format: 'date', description: 'The last day of the next period' }) next_statement_date!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Always null' }) payment_due_date!: string | null;
  @ApiProperty({ type: StatementTotalsModel }) period_totals!: StatementTotalsModel;
  @ApiCents('The total balance at the period\'s start') starting_balance!: bigint;
  @ApiProperty({ format: 'date', description: 'The period\'s last day, inclusive' }) statement_end_date!: string;
  @ApiProperty({ format: 'date', description: 'The period\'s first day' }) statement_start_date!: string;
  @ApiProperty({ enum: ['INITIAL', 'PERIOD_END'], description: 'INITIAL for the month the account was created in' }) statement_type!: string;
  @ApiProperty({ format: 'date-time' }) updated!: string;
  @ApiProperty({ type: StatementTotalsModel, description: 'From the start of the period\'s year (or of the account) to the period\'s end' }) ytd_totals!: StatementTotalsModel;
  @ApiProperty({ type: StatementTotalsModel, description: 'The same as period_totals' }) statement_totals!: StatementTotalsModel;
}

/** One change of the total balance in a statement's period: a clearing, a return, a return reversal, a bounced settlement. */
@ApiSchema({ name: 'StatementLineItemModel' })
export class StatementLineItemResponse {
  @ApiProperty({ format: 'uuid', description: 'The ledger event\'s id' }) token!: string;
  @ApiCents('From the account\'s side, like the balance: money out negative') amount!: bigint;
  @ApiProperty({ enum: ['CARD'] }) category!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ example: 'USD' }) currency!: string;
  @ApiProperty({ format: 'date' }) effective_date!: string;
  @ApiProperty({ description: "Lithic's event type (a bounced settlement is TRANSFER_INSUFFICIENT_FUNDS)" }) event_type!: string;
  @ApiProperty({ format: 'uuid' }) financial_account_token!: string;
  @ApiProperty({ format: 'uuid' }) financial_transaction_event_token!: string;
  @ApiProperty({ format: 'uuid' }) financial_transaction_token!: string;
  @ApiProperty({ format: 'uuid' }) card_token!: string;
  @ApiProperty() descriptor!: string;
}

export const StatementPageModel = pageOf(StatementResponse, 'StatementPage');
export const StatementLineItemPageModel = pageOf(StatementLineItemResponse, 'StatementLineItemPage');
