import { Dispute, DisputeTable } from '../dispute-table';
import { DISPUTE_STATUSES } from '../dispute-stages';
import { ListFilters, ListPager, usePagedList } from '../paged-list';
import { useSandbox } from '../sandbox';
import { ErrorNote, SelectField } from '../ui';

/** The program's disputes, oldest first, by status; in a sandbox each can be moved on as the network would. */
export function DisputesPage() {
  const sandbox = useSandbox();
  const paged = usePagedList('/v1/disputes', { status: '', page_size: '20' });
  const { list, filters, set } = paged;
  return (
    <>
      <h1>Disputes</h1>
      <p>
        A dispute asks for a cleared purchase's money back; file one from the transaction's page. A case won gives the disputed amount back to the card's balance; a case closed (lost
        or withdrawn) moves nothing.
        {sandbox && ' In this sandbox the buttons play the network: each moves a case to the stage it names.'}
      </p>
      <section aria-labelledby="dispute-list">
        <h2 id="dispute-list">All disputes</h2>
        <ListFilters paged={paged}>
          <SelectField label="Status" value={filters.status} options={['', ...DISPUTE_STATUSES]} onChange={set('status')} />
        </ListFilters>
        <ErrorNote error={list.error} />
        {list.data && <DisputeTable disputes={list.data.data as Dispute[]} labelledBy="dispute-list" onChanged={list.reload} />}
        <ListPager paged={paged} />
      </section>
    </>
  );
}
