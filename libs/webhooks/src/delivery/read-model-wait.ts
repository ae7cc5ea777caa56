import type { GlobalPosition } from '@ledger/event-store';
import { ProjectionWatcher, ReadModelBehind } from '@ledger/runtime';

/** Thrown into a feed that was waiting for the read models when the feeder was asked to stop. */
export class FeederStopping extends Error {
  constructor() {
    super('webhook feeder stopping');
    this.name = 'FeederStopping';
  }
}

/**
 * Waits until the read models include a position, however long that takes (a payload is built from
 * them, and a subscription must be visible before its events are matched), checking every slice
 * whether the feeder is stopping.
 */
export async function waitForReadModels(watcher: ProjectionWatcher, position: GlobalPosition, stopping: () => boolean, sliceMs = 500): Promise<void> {
  for (;;) {
    if (stopping()) throw new FeederStopping();
    try {
      await watcher.waitFor(position, sliceMs);
      return;
    } catch (error) {
      if (!(error instanceof ReadModelBehind)) throw error;
    }
  }
}
