import type { EventStore } from '../event-store.port';

/**
 * The EventStoreDB (KurrentDB) adapter, loaded only by a process configured for it: its client and
 * the gRPC and protobuf code under it take a process about 8 MB of heap and 28 MB of resident memory
 * as soon as they are required, which a service on PostgreSQL (the default) would carry for nothing.
 */
export async function connectEventStoreDb(connectionString: string): Promise<EventStore> {
  const { EventStoreDbEventStore } = await import('./eventstoredb-event-store');
  return new EventStoreDbEventStore(connectionString);
}
