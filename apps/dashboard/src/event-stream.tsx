import { useEffect, useState } from 'preact/hooks';
import { get } from './api';
import { Column, DataTable } from './data-table';
import { AuditEvent, ChainStatus, checkChain } from './hash-chain';
import { ErrorNote, Json, useLoad, when } from './ui';

const CHAIN_TEXT: Record<ChainStatus['kind'], string> = { verified: 'hash verified', linked: 'linked', broken: 'broken' };

/** An event of the stream, with its place in the hash chain once checked. */
interface CheckedEvent {
  readonly event: AuditEvent;
  readonly status: ChainStatus | undefined;
}

const EVENT_COLUMNS: Column<CheckedEvent>[] = [
  { header: '#', cell: ({ event }) => event.stream_version },
  { header: 'Event', cell: ({ event }) => event.type },
  { header: 'Recorded', cell: ({ event }) => when(event.recorded_at ?? String(event.metadata.occurredAt ?? '')) },
  { header: 'Hash chain', cell: (checked) => <ChainCell {...checked} /> },
  {
    header: 'Content',
    cell: ({ event }) => (
      <details>
        <summary>data and metadata</summary>
        <Json value={{ data: event.data, metadata: event.metadata }} />
      </details>
    ),
  },
];

function ChainCell({ event, status }: CheckedEvent) {
  return (
    <>
      {status && (
        <span class={`chain chain-${status.kind}`} title={'why' in status ? status.why : 'recomputed SHA-256 matches'}>
          {CHAIN_TEXT[status.kind]}
        </span>
      )}
      {status && 'why' in status && <small class="why">{status.why}</small>}
      <small class="hash">{String(event.metadata.hash ?? '').slice(0, 12)}…</small>
    </>
  );
}

/** A stream's raw events with each one's place in the hash chain, checked here in the browser. */
export function EventStream({ path, tick }: { path: string; tick: number }) {
  const events = useLoad(() => get<{ data: AuditEvent[] }>(path), [path, tick]);
  const [statuses, setStatuses] = useState<ChainStatus[]>([]);
  useEffect(() => {
    if (events.data) void checkChain(events.data.data).then(setStatuses);
  }, [events.data]);
  return (
    <section aria-labelledby="event-stream">
      <h2 id="event-stream">Event stream</h2>
      <ErrorNote error={events.error} />
      <DataTable columns={EVENT_COLUMNS} rows={events.data?.data.map((event, index) => ({ event, status: statuses[index] }))} keyOf={({ event }) => event.event_id} />
    </section>
  );
}
