/**
 * Commands on one stream, taken one after the other within this process. Concurrent decisions on a
 * hot card would otherwise all read the same version, all but one lose the append and decide again,
 * each retry a round trip to the store and a random wait. Queued, each decides on the fold the one
 * before it left. The expected version still guards against writers in other processes: the queue
 * only removes the collisions a process would have with itself.
 */
export class StreamQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `work` once every earlier work on the same stream has settled; its result or error is the caller's. */
  run<T>(streamId: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(streamId);
    const turn = before ? before.then(work, work) : work();
    const tail = turn.catch(() => undefined);
    this.tails.set(streamId, tail);
    // The last one out removes the entry, so idle streams cost nothing.
    void tail.then(() => {
      if (this.tails.get(streamId) === tail) this.tails.delete(streamId);
    });
    return turn;
  }

  /** Streams with work queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
