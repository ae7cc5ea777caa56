import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, Matches, Max, Min } from 'class-validator';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RESULT_FILTERS } from './simulate-requests';
import { PagedDateRangeParams, UUID_V4 } from './validation';

const uuid = (field: string) => ({ message: `${field} must be a 36-character version 4 UUID` });

/**
 * Query of GET /v1/transactions (spec 4.8). The spec's table writes the names run together
 * (accounttoken, cardtoken, pagesize) and its prose with underscores: both are accepted.
 */
export class ListTransactionsParams extends PagedDateRangeParams {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @Matches(UUID_V4, uuid('account_token'))
  account_token?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Spec table spelling of account_token' })
  @IsOptional()
  @Matches(UUID_V4, uuid('accounttoken'))
  accounttoken?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @Matches(UUID_V4, uuid('card_token'))
  card_token?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Spec table spelling of card_token' })
  @IsOptional()
  @Matches(UUID_V4, uuid('cardtoken'))
  cardtoken?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Time travel: the transactions as they were at that moment' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'as_of must be an ISO 8601 date-time, e.g. 2026-11-22T10:00:00Z' })
  as_of?: string;

  @ApiPropertyOptional({ enum: RESULT_FILTERS })
  @IsOptional()
  @IsIn(RESULT_FILTERS, { message: 'result must be APPROVED or DECLINED' })
  result?: (typeof RESULT_FILTERS)[number];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, description: 'Spec table spelling of page_size' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'pagesize must be an integer from 1 to 1000' })
  @Min(1, { message: 'pagesize must be an integer from 1 to 1000' })
  @Max(1000, { message: 'pagesize must be an integer from 1 to 1000' })
  pagesize?: number;
}

export class TransactionTokenParam {
  @ApiProperty({ format: 'uuid' })
  @Matches(UUID_V4, uuid('transaction_token'))
  transaction_token!: string;
}
