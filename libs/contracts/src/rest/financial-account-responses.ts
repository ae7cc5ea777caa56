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
