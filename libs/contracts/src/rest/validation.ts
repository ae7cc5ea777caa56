import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, Max, Min, registerDecorator, ValidationArguments, ValidationOptions } from 'class-validator';
import { ApiPropertyOptional } from '@nestjs/swagger';

/** Spec formats shared by several DTOs. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
export const MAX_MONEY = Number.MAX_SAFE_INTEGER;

/** A real calendar date written YYYY-MM-DD (2026-02-30 is refused). */
export function IsCalendarDate(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isCalendarDate',
      target: target.constructor,
      propertyName,
      options: { message: (args: ValidationArguments) => `${args.property} must be a date written YYYY-MM-DD`, ...options },
      validator: {
        validate(value: unknown) {
          if (typeof value !== 'string' || !CALENDAR_DATE.test(value)) return false;
          const date = new Date(`${value}T00:00:00Z`);
          return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
        },
      },
    });
}

const pageSizeMessage = { message: 'page_size must be an integer from 1 to 1000' };
const pageMessage = { message: 'page must be an integer of 1 or more' };

/** Paging as every list endpoint takes it (spec 8: page_size 1 to 1000, default 50; page from 1). */
export class PageParams {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt(pageSizeMessage)
  @Min(1, pageSizeMessage)
  @Max(1000, pageSizeMessage)
  page_size?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt(pageMessage)
  @Min(1, pageMessage)
  page?: number;
}

/** The paging and date-range parameters both spec list endpoints take (spec 4.7, 4.8, 8). */
export class PagedDateRangeParams extends PageParams {
  @ApiPropertyOptional({ format: 'date', description: 'Created on or after this day (YYYY-MM-DD, UTC)' })
  @IsOptional()
  @IsCalendarDate()
  begin?: string;

  @ApiPropertyOptional({ format: 'date', description: 'Created before this day (YYYY-MM-DD, UTC)' })
  @IsOptional()
  @IsCalendarDate()
  end?: string;
}

/** Time travel (`?as_of=`): state as it was at that moment, computed from the events. */
export class AsOfParams {
  @ApiPropertyOptional({ format: 'date-time', description: 'Time travel: the state at that moment, computed from the events' })
  @IsOptional()
  @IsISO8601({ strict: true, strictSeparator: true }, { message: 'as_of must be an ISO 8601 date-time, e.g. 2026-11-22T10:00:00Z' })
  as_of?: string;
}
