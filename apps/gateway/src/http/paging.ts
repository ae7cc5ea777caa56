import type { Page } from '@ledger/contracts';

/** Both lists page the same way: oldest first, `page` counted from 1, the spec's envelope. */
export const OLDEST_FIRST = [{ created: 'asc' as const }, { token: 'asc' as const }];

export function pageWindow(page: number, pageSize: number): { skip: number; take: number } {
  return { skip: (page - 1) * pageSize, take: pageSize };
}

export function pageOf<T>(data: T[], page: number, pageSize: number, total: number): Page<T> {
  return { data, page, total_entries: total, total_pages: Math.ceil(total / pageSize) };
}

/** begin is inclusive, end exclusive (spec 4.7, 4.8). */
export function createdBetween(filter: { createdFrom?: Date; createdBefore?: Date }): { gte?: Date; lt?: Date } {
  return { ...(filter.createdFrom ? { gte: filter.createdFrom } : {}), ...(filter.createdBefore ? { lt: filter.createdBefore } : {}) };
}
