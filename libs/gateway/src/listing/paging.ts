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

/** Where a row stands in its table's order. */
export interface ListKey {
  readonly at: Date;
  readonly tie: string;
}

/** One read of a list: the items past `after` in its order (before it, `backwards`, nearest first), or past `skip` of them. */
export interface ListRead<Key> {
  readonly after?: Key;
  readonly backwards: boolean;
  readonly skip?: number;
  readonly take: number;
}

/** One list as {@link listPage} reads it; the handler keeps its own filter inside `count` and `read`. */
export interface ListSource<Key, Row, Item> {
  /** What the list holds, for the cursor error: "card", "transaction". */
  readonly noun: string;
  count(): Promise<number>;
  read(read: ListRead<Key>): Promise<Row[]>;
  /** Where the list's item with this token stands, or null when the list has none. */
  keyOf(token: string): Promise<Key | null>;
  present(rows: Row[]): Promise<Item[]>;
}

/**
 * The one way every list pages. By page: an offset into the order, with the spec's totals. By
 * cursor: from the cursor item's key (keyset pagination for a table, so concurrent inserts never
 * shift a page). Either way one row more than the page is read, and its presence is `has_more`. A
 * cursor that names no item of the list is refused (400): Lithic answers a bad cursor with an error,
 * not an empty page.
 */
export async function listPage<Key, Row, Item>(paging: PageRequest, list: ListSource<Key, Row, Item>): Promise<Page<Item>> {
  const { pageSize } = paging;
  if (paging.style === 'page') {
    const [total, rows] = await Promise.all([list.count(), list.read({ backwards: false, skip: (paging.page - 1) * pageSize, take: pageSize + 1 })]);
    return pageOf(await list.present(rows.slice(0, pageSize)), paging.page, pageSize, total, rows.length > pageSize);
  }
  const { startingAfter, endingBefore } = paging;
  const backwards = endingBefore !== undefined;
  const after = backwards ? await cursorKey(list, 'ending_before', endingBefore) : startingAfter === undefined ? undefined : await cursorKey(list, 'starting_after', startingAfter);
  const rows = await list.read({ after, backwards, take: pageSize + 1 });
  const shown = rows.slice(0, pageSize);
  return { data: await list.present(backwards ? shown.reverse() : shown), has_more: rows.length > pageSize };
}

/**
 * A list already whole and in order in memory (time travel folds every stream it shows), paged by
 * {@link listPage} with the items' places as keys. A cursor must name an item of this list as
 * filtered; only `present`'s items are presented.
 */
export function inMemoryPage<T, Item>(paging: PageRequest, items: readonly T[], tokenOf: (item: T) => string, noun: string, present: (shown: T[]) => Promise<Item[]>): Promise<Page<Item>> {
  return listPage<number, T, Item>(paging, {
    noun,
    count: async () => items.length,
    read: async ({ after = -1, backwards, skip = 0, take }) => {
      if (backwards) return items.slice(Math.max(0, after - take), after).reverse();
      const from = after + 1 + skip;
      return items.slice(from, from + take);
    },
    keyOf: async (token) => {
      const index = items.findIndex((item) => tokenOf(item) === token);
      return index < 0 ? null : index;
    },
    present,
  });
}

/** The spec's envelope, with `has_more` beside it. */
export function pageOf<T>(data: T[], page: number, pageSize: number, total: number, hasMore = page * pageSize < total): Page<T> {
  return { data, has_more: hasMore, page, total_entries: total, total_pages: Math.ceil(total / pageSize) };
}

/** An empty answer in the style asked: nothing matches before any row is read. */
export function emptyPage<T>(paging: PageRequest): Page<T> {
  return paging.style === 'page' ? pageOf([], paging.page, paging.pageSize, 0) : { data: [], has_more: false };
}

async function cursorKey<Key>(list: ListSource<Key, unknown, unknown>, parameter: string, token: string): Promise<Key> {
  const key = await list.keyOf(token);
  if (key === null) throw new RequestInvalid(`${parameter} ${token} is not ${/^[aeiou]/.test(list.noun) ? 'an' : 'a'} ${list.noun} of this list`);
  return key;
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
  return listPage<ListKey, Row, Item>(paging, {
    noun: list.noun,
    count: () => Promise.resolve(table.count({ where })),
    read: ({ after, backwards, skip, take }) => {
      const direction = backwards === (order.direction === 'asc') ? 'desc' : 'asc';
      // The rows past the key as read: a later `at`, or the same `at` and a later tie.
      const past = (value: unknown) => (direction === 'asc' ? { gt: value } : { lt: value });
      const keyset = after && { OR: [{ [order.at]: past(after.at) }, { [order.at]: after.at, [order.tie]: past(after.tie) }] };
      return Promise.resolve(table.findMany({ where: { ...where, ...(keyset ? { AND: [keyset] } : {}) }, orderBy: [{ [order.at]: direction }, { [order.tie]: direction }], skip, take }));
    },
    keyOf: async (token) => {
      const row = (await table.findFirst({ where: { AND: [list.scope, { [order.tie]: token }] }, select: { [order.at]: true, [order.tie]: true } })) as (Record<At, Date> & Record<Tie, string>) | null;
      return row && { at: row[order.at], tie: row[order.tie] };
    },
    present: list.present,
  });
}
