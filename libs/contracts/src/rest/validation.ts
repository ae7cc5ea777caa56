import { CursorParameter } from './cursor-parameters';
import { DayOrInstantParameter, InstantParameter, IntegerParameter } from './query-parameters';

/** Spec formats shared by several DTOs. */
export { UUID_V4 } from './uuid-v4';
export const MAX_MONEY = Number.MAX_SAFE_INTEGER;

/**
 * A page far beyond any data is empty, but its offset must stay a number the databases take:
 * (MAX_PAGE - 1) * MAX_PAGE_SIZE = 1,999,999,000 < 2^31 - 1.
 */
export const MAX_PAGE = 2_000_000;
export const MAX_PAGE_SIZE = 1000;

/** Paging as every list endpoint takes it (spec 8: page_size 1 to 1000, default 50; page from 1). */
export class PageParams {
  @IntegerParameter({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 })
  page_size?: number;

  @IntegerParameter({ minimum: 1, maximum: MAX_PAGE, default: 1 })
  page?: number;
}

/** Paging by page or by Lithic's cursors (never both in one request); page_size works with either. */
export class CursorPageParams extends PageParams {
  @CursorParameter()
  starting_after?: string;

  @CursorParameter()
  ending_before?: string;
}

/** The paging and date-range parameters both spec list endpoints take (spec 4.7, 4.8, 8); begin and end also as Lithic's RFC 3339 instants. */
export class PagedDateRangeParams extends CursorPageParams {
  @DayOrInstantParameter({ description: 'Created at or after this instant, or on or after this day (YYYY-MM-DD: its UTC midnight)' })
  begin?: Date;

  @DayOrInstantParameter({ description: 'Created before this instant, or before this day (YYYY-MM-DD: its UTC midnight)' })
  end?: Date;
}

/** Time travel (`?as_of=`): state as it was at that moment, computed from the events. */
export class AsOfParams {
  @InstantParameter({ description: 'Time travel: the state at that moment, computed from the events' })
  as_of?: Date;
}
