import { EventStore, formatPosition, GlobalPosition, RecordedEvent } from '@ledger/event-store';
import { leafHash, type LoggedEvent, PackedLeaves } from '@ledger/ledger-proof';

/** The global log as the commitment sees it: leaf hashes in position order, packed, and the last position. */
export interface LedgerLeaves {
  readonly leaves: PackedLeaves;
  /** Position of the last leaf's event; null for an empty log. */
  readonly lastPosition: string | null;
  /** Every leaf's position, only when asked for (`keepPositions`): 50 MB of heap a million events. */
  readonly positions: string[];
}

export function loggedEvent(event: RecordedEvent): LoggedEvent {
  return { streamId: event.streamId, streamVersion: event.streamVersion, position: formatPosition(event.position), type: event.type, schemaVersion: event.schemaVersion, data: event.data, metadata: event.metadata };
}

/**
 * Reads the whole log (or its first `limit` events) and hashes every event into its leaf; `visit`
 * sees each event with its leaf index. A full pass per call: O(events) reads and hashes; memory is 32
 * bytes a leaf, outside the JS heap. For `admin digest/verify/export`, which must not trust the kept
 * tree (LedgerTreeTables) that the service answers from (docs/audit.md, "What the cache is trusted for").
 */
export async function readLedgerLeaves(
  store: EventStore,
  options: { limit?: number; visit?: (event: RecordedEvent, index: number) => void; batchSize?: number; keepPositions?: boolean } = {},
): Promise<LedgerLeaves> {
  const leaves = new PackedLeaves();
  const positions: string[] = [];
  let lastPosition: string | null = null;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  let after: GlobalPosition | null = null;
  while (leaves.length < limit) {
    const batch = await store.readAll({ after, maxCount: Math.min(options.batchSize ?? 5000, limit - leaves.length) });
    if (batch.length === 0) break;
    for (const event of batch) {
      const logged = loggedEvent(event);
      options.visit?.(event, leaves.length);
      leaves.push(leafHash(logged));
      lastPosition = logged.position;
      if (options.keepPositions) positions.push(logged.position);
    }
    after = batch[batch.length - 1].position;
  }
  return { leaves, lastPosition, positions };
}
