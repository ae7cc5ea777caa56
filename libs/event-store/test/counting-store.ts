import type { EventStore, ReadStreamOptions, RecordedEvent } from '../src/event-store.port';

/**
 * A real store with its stream reads counted: how many, and how many events they returned. The
 * pipeline specs use it to tell a remembered fold from one read again.
 */
export class CountingStore {
  reads = 0;
  eventsRead = 0;
  constructor(readonly inner: EventStore) {}

  asStore(): EventStore {
    return new Proxy(this.inner, {
      get: (target, property) =>
        property === 'readStream'
          ? async (streamId: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> => {
              const events = await target.readStream(streamId, options);
              this.reads += 1;
              this.eventsRead += events.length;
              return events;
            }
          : Reflect.get(target, property, target),
    }) as EventStore;
  }
}
