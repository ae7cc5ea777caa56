import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { get, Page } from './api';
import { useLive } from './live';
import { Pager, SelectField, useLoad } from './ui';

/**
 * A list page of the API with its filters: loaded again when a filter, the page or a live event
 * changes; changing a filter goes back to page 1.
 */
export function usePagedList<Filters extends Record<string, string> & { page_size: string }>(path: string, initial: Filters) {
  const live = useLive();
  const [filters, setFilters] = useState(initial);
  const [page, setPage] = useState(1);
  const list = useLoad(() => get<Page<any>>(path, { ...filters, page }), [JSON.stringify(filters), page, live.tick]);
  const set = (name: keyof Filters) => (value: string) => {
    setFilters({ ...filters, [name]: value });
    setPage(1);
  };
  return { list, filters, set, page, setPage };
}

/** What the filter form and the pager read of a paged list. */
interface PagedList {
  readonly list: { readonly data: Page<unknown> | undefined };
  readonly filters: { readonly page_size: string };
  set(name: 'page_size'): (value: string) => void;
  readonly page: number;
  setPage(page: number): void;
}

/** The list's filter fields, then its page size; typing filters, never submitting. */
export function ListFilters({ paged, children }: { paged: PagedList; children: ComponentChildren }) {
  return (
    <form class="filters" onSubmit={(event) => event.preventDefault()}>
      {children}
      <SelectField label="Per page" value={paged.filters.page_size} options={['10', '20', '50', '100']} onChange={paged.set('page_size')} />
    </form>
  );
}

export function ListPager({ paged }: { paged: PagedList }) {
  const data = paged.list.data;
  return data ? <Pager page={paged.page} totalPages={data.total_pages} hasMore={data.has_more} onPage={paged.setPage} /> : null;
}
