import { DEFAULT_PAGE_SIZE, type Page, type PageRequest } from '@ledger/contracts';
import type { Prisma } from '@ledger/read-model';
import { RequestInvalid } from '../http/errors';

/**
 * A list's order: a timestamp column, then a unique tie-breaker, both one way. Page numbers and
 * cursors walk this same order, so a cursor request reads the list as its pages do.
 */
export interface ListOrder<At extends string, Tie extends string> {
  readonly at: At;
  readonly tie: Tie;
  readonly direction: 'asc' | 'desc';
}

/** Cards, transactions and subscriptions: oldest first, so page 2 of three cards (page_size 2) holds the third. */
export const OLDEST_FIRST = { at: 'created', tie: 'token', direction: 'asc' } as const satisfies ListOrder<'created', 'token'>;

/** Where an item stands in its list's order. */
export interface ListKey<T> {
  readonly at: Date;
  readonly tie: T;
}

type Comparison<T> = { gt: T } | { lt: T };
/** Prisma's `where` for the items past a key: later at, or the same at and a later tie. */
export type KeysetWhere<At extends string, Tie extends string, T> = { OR: [Record<At, Comparison<Date>>, Record<At, Date> & Record<Tie, Comparison<T>>] };
export type OrderBy<At extends string, Tie extends string> = [Record<At, 'asc' | 'desc'>, Record<Tie, 'asc' | 'desc'>];

/** One list as {@link listPage} reads it; the handler keeps its own filter inside `find` and `count`. */
export interface ListSource<At extends string, Tie extends string, T, Row, Item> {
  readonly order: ListOrder<At, Tie>;
  /** What the list holds, for the cursor error: "card", "transaction". */
  readonly noun: string;
  count(): Promise<number>;
  /** The filtered rows, `after` (when given) narrowing them to those past a key, in `orderBy`. */
  find(query: { after?: KeysetWhere<At, Tie, T>; orderBy: OrderBy<At, Tie>; skip?: number; take: number }): Promise<Row[]>;
  /**
   * The key of the list's item with this token, or null when the list has none. The item is looked
   * up without the request's filters, so a cursor stays valid after its item stops matching them.
   */
  keyOf(token: string): Promise<ListKey<T> | null>;
  present(rows: Row[]): Promise<Item[]>;
}

/**
 * The one way every list pages. By page: an offset into the order, with the spec's totals. By
 * cursor: keyset pagination from the cursor item's key, so concurrent inserts never shift a page.
 * Either way one row more than the page is read, and its presence is `has_more`. A cursor that names
 * no item of the list is refused (400): Lithic answers a bad cursor with an error, not an empty page.
 */
export async function listPage<At extends string, Tie extends string, T, Row, Item>(paging: PageRequest, list: ListSource<At, Tie, T, Row, Item>): Promise<Page<Item>> {
  const forwards = orderBy(list.order, false);
  if (paging.style === 'page') {
    const [total, rows] = await Promise.all([list.count(), list.find({ orderBy: forwards, skip: (paging.page - 1) * paging.pageSize, take: paging.pageSize + 1 })]);
    return pageOf(await list.present(rows.slice(0, paging.pageSize)), paging.page, paging.pageSize, total, rows.length > paging.pageSize);
  }
  const { pageSize, startingAfter, endingBefore } = paging;
  if (endingBefore !== undefined) {
    const key = await cursorKey(list, 'ending_before', endingBefore);
    const rows = await list.find({ after: keyset(list.order, key, true), orderBy: orderBy(list.order, true), take: pageSize + 1 });
    return { data: await list.present(rows.slice(0, pageSize).reverse()), has_more: rows.length > pageSize };
  }
  const after = startingAfter === undefined ? undefined : keyset(list.order, await cursorKey(list, 'starting_after', startingAfter), false);
  const rows = await list.find({ ...(after ? { after } : {}), orderBy: forwards, take: pageSize + 1 });
  return { data: await list.present(rows.slice(0, pageSize)), has_more: rows.length > pageSize };
}

/**
 * A list already whole and in order in memory (time travel folds every stream it shows), paged by
 * the rules of {@link listPage}: one page of it by number, or the items after (before) the cursor's.
 * A cursor must name an item of this list as filtered; only `present`'s items are presented.
 */
export async function inMemoryPage<T, Item>(paging: PageRequest, items: readonly T[], tokenOf: (item: T) => string, noun: string, present: (shown: T[]) => Promise<Item[]>): Promise<Page<Item>> {
  if (paging.style === 'page') {
    const from = (paging.page - 1) * paging.pageSize;
    return pageOf(await present(items.slice(from, from + paging.pageSize)), paging.page, paging.pageSize, items.length);
  }
  const { pageSize, startingAfter, endingBefore } = paging;
  const indexOf = (parameter: string, token: string) => {
    const index = items.findIndex((item) => tokenOf(item) === token);
    if (index < 0) throw new RequestInvalid(`${parameter} ${token} is not ${article(noun)} of this list`);
    return index;
  };
  if (endingBefore !== undefined) {
    const end = indexOf('ending_before', endingBefore);
    const start = Math.max(0, end - pageSize);
    return { data: await present(items.slice(start, end)), has_more: start > 0 };
  }
  const start = startingAfter === undefined ? 0 : indexOf('starting_after', startingAfter) + 1;
  return { data: await present(items.slice(start, start + pageSize)), has_more: start + pageSize < items.length };
}

/** The spec's envelope, with `has_more` beside it. */
export function pageOf<T>(data: T[], page: number, pageSize: number, total: number, hasMore = page * pageSize < total): Page<T> {
  return { data, has_more: hasMore, page, total_entries: total, total_pages: Math.ceil(total / pageSize) };
}

/** An empty answer in the style asked: nothing matches before any row is read. */
export function emptyPage<T>(paging: PageRequest): Page<T> {
  return paging.style === 'page' ? pageOf([], paging.page, paging.pageSize, 0) : { data: [], has_more: false };
}

async function cursorKey<At extends string, Tie extends string, T, Row, Item>(list: ListSource<At, Tie, T, Row, Item>, parameter: string, token: string): Promise<ListKey<T>> {
  const key = await list.keyOf(token);
  if (!key) throw new RequestInvalid(`${parameter} ${token} is not ${article(list.noun)} of this list`);
  return key;
}

function article(noun: string): string {
  return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

function orderBy<At extends string, Tie extends string>(order: ListOrder<At, Tie>, reversed: boolean): OrderBy<At, Tie> {
  const direction = reversed === (order.direction === 'asc') ? 'desc' : 'asc';
  return [{ [order.at]: direction } as Record<At, 'asc' | 'desc'>, { [order.tie]: direction } as Record<Tie, 'asc' | 'desc'>];
}

/** The rows past `key` in the order (or, reversed, before it). */
function keyset<At extends string, Tie extends string, T>(order: ListOrder<At, Tie>, key: ListKey<T>, reversed: boolean): KeysetWhere<At, Tie, T> {
  const past = <V>(value: V): Comparison<V> => (reversed === (order.direction === 'asc') ? { lt: value } : { gt: value });
  return {
    OR: [{ [order.at]: past(key.at) } as Record<At, Comparison<Date>>, { [order.at]: key.at, [order.tie]: past(key.tie) } as Record<At, Date> & Record<Tie, Comparison<T>>],
  };
}

/**
 * A request's paging as the queries take it: cursor style as soon as a cursor is named. The page size
 * is the request's `page_size`, else the default; a route that also takes another spelling of it
 * passes the one it settled on.
 */
export function pageRequest(
  params: { page?: number; page_size?: number; starting_after?: string; ending_before?: string },
  pageSize = params.page_size ?? DEFAULT_PAGE_SIZE,
): PageRequest {
  if (params.starting_after !== undefined || params.ending_before !== undefined) {
    return { style: 'cursor', pageSize, startingAfter: params.starting_after, endingBefore: params.ending_before };
  }
  return { style: 'page', page: params.page ?? 1, pageSize };
}

/** begin is inclusive, end exclusive (spec 4.7, 4.8). */
export function createdBetween(filter: { createdFrom?: Date; createdBefore?: Date }): { gte?: Date; lt?: Date } {
  return { ...(filter.createdFrom ? { gte: filter.createdFrom } : {}), ...(filter.createdBefore ? { lt: filter.createdBefore } : {}) };
}

/** What a list reads of a read-model table: a Prisma model delegate. */
interface ListedTable<Row> {
  count: (args: { where: object }) => PromiseLike<number>;
  findMany: (args: { where: object; orderBy: object; skip?: number; take: number }) => PromiseLike<Row[]>;
  findFirst: (args: { where: object; select: object }) => PromiseLike<object | null>;
}

/** The table's own filter type, so a list's conditions are checked against its columns. */
type WhereOf<Table> = NonNullable<Prisma.Args<Table, 'findMany'>['where']>;

/**
 * One page of a read-model table's list ({@link listPage}): the rows `where` keeps, in `order`. A
 * cursor's item is looked up by its token (the order's tie) within `scope` alone, without the
 * request's filters (see {@link ListSource.keyOf}).
 */
export function tablePage<Table, Row, At extends string, Tie extends string, Item>(
  paging: PageRequest,
  table: Table & ListedTable<Row>,
  list: { order: ListOrder<At, Tie>; noun: string; where: WhereOf<Table>; scope: WhereOf<Table>; present(rows: Row[]): Promise<Item[]> },
): Promise<Page<Item>> {
  const { order, where } = list;
  return listPage(paging, {
    order,
    noun: list.noun,
    count: () => Promise.resolve(table.count({ where })),
    find: ({ after, orderBy, skip, take }) => Promise.resolve(table.findMany({ where: { ...where, ...(after ? { AND: [after] } : {}) }, orderBy, skip, take })),
    keyOf: async (token) => {
      const row = (await table.findFirst({ where: { AND: [list.scope, { [order.tie]: token }] }, select: { [order.at]: true, [order.tie]: true } })) as (Record<At, Date> & Record<Tie, string>) | null;
      return row && { at: row[order.at], tie: row[order.tie] };
    },
    present: list.present,
  });
}
