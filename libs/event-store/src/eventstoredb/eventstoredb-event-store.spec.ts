import { randomUUID } from 'node:crypto';
import { describeEventStoreContract } from '../contract/event-store-contract';
import { EventStoreDbEventStore } from './eventstoredb-event-store';

/**
 * The shared contract against a real EventStoreDB, KurrentDB 26.1 or later, e.g. EVENTSTOREDB_URL=kurrentdb://127.0.0.1:2113?tls=false
 * (the docker-compose service). Without it the suite is reported as skipped, with the reason in its name.
 */
const connectionString = process.env.EVENTSTOREDB_URL;

if (connectionString) {
  describeEventStoreContract('EventStoreDB', async () => {
    const store = new EventStoreDbEventStore(connectionString);
    // Fails fast with a clear error when the server is unreachable, instead of in every test.
    await store.readStream(`contract-probe-${randomUUID()}`);
    return {
      store,
      // The contract writes to fresh random streams and never needs an empty store.
      reset: async () => undefined,
      dispose: () => store.close(),
    };
  });
} else {
  const reason = 'set EVENTSTOREDB_URL to a KurrentDB (26.1+) connection string to run it; none runs on this machine';
  console.warn(`[event-store] EventStoreDB contract skipped: ${reason}`);
  describe.skip(`EventStoreDB contract (skipped: ${reason})`, () => {
    describeEventStoreContract('EventStoreDB', () => Promise.reject(new Error('EVENTSTOREDB_URL is not set')));
  });
}
