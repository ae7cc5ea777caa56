import { connectEventStoreDb } from '../index';

// Observes when the client is first required; the real module is what runs.
let mockClientLoaded = false;
jest.mock('@kurrent/kurrentdb-client', () => {
  mockClientLoaded = true;
  return jest.requireActual('@kurrent/kurrentdb-client');
});

describe('connectEventStoreDb', () => {
  it('leaves the EventStoreDB client unloaded in a process that only imports the event-store library', () => {
    expect(typeof connectEventStoreDb).toBe('function');
    expect(mockClientLoaded).toBe(false);
  });

  it('loads the client when asked for the adapter, and answers an event store on the connection string (connecting on first use)', async () => {
    const store = await connectEventStoreDb('kurrentdb://127.0.0.1:1?tls=false');
    try {
      expect(mockClientLoaded).toBe(true);
      expect(store.constructor.name).toBe('EventStoreDbEventStore');
    } finally {
      await store.close();
    }
  });
});
