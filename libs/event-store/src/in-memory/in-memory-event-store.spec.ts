import { describeEventStoreContract } from '../contract/event-store-contract';
import { InMemoryEventStore } from './in-memory-event-store';

describeEventStoreContract('in memory', async () => {
  let store = new InMemoryEventStore();
  return {
    get store() {
      return store;
    },
    // A new store is the empty store: nothing of the last test's subscriptions or streams is left.
    reset: async () => {
      await store.close();
      store = new InMemoryEventStore();
    },
    dispose: () => store.close(),
  };
});
