/**
 * A one-slot wake-up for a consumer loop. A notify that arrives while the loop is busy is kept, so
 * the next wait returns at once instead of sleeping through an event that was signalled during a read.
 */
export class WakeSignal {
  private pending = false;
  private waiter: (() => void) | null = null;

  notify(): void {
    this.pending = true;
    this.waiter?.();
  }

  /** Forget earlier notifications: call it just before reading, since that read will see their effect. */
  clear(): void {
    this.pending = false;
  }

  /** Resolves on the next notify (true), or after timeoutMs when given (false). */
  wait(timeoutMs?: number): Promise<boolean> {
    if (this.pending) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = timeoutMs === undefined ? undefined : setTimeout(() => wake(false), timeoutMs);
      const wake = (notified: boolean): void => {
        if (timer !== undefined) clearTimeout(timer);
        this.waiter = null;
        resolve(notified);
      };
      this.waiter = () => wake(true);
    });
  }
}

/** A promise with its resolve and reject functions, for signals like `caughtUp`; the first call wins. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
  readonly done: boolean;
}

export function deferred<T>(): Deferred<T> {
  let ends!: { resolve(value: T): void; reject(reason: unknown): void };
  const promise = new Promise<T>((resolve, reject) => {
    ends = { resolve, reject };
  });
  const result = {
    promise,
    done: false,
    resolve(value: T) {
      if (result.done) return;
      result.done = true;
      ends.resolve(value);
    },
    reject(reason: unknown) {
      if (result.done) return;
      result.done = true;
      ends.reject(reason);
    },
  };
  // Nobody is obliged to await `caughtUp`; a rejection nobody listens to must not crash the process.
  promise.catch(() => undefined);
  return result;
}

export class SubscriptionStoppedError extends Error {
  constructor() {
    super('The subscription stopped before it caught up with the head of the log');
    this.name = 'SubscriptionStoppedError';
  }
}

/** Errors of a subscription go to onError once; without one they must still be seen. */
export function reportSubscriptionError(onError: ((error: unknown) => void) | undefined, error: unknown): void {
  if (onError) {
    onError(error);
    return;
  }
  console.error('[event-store] subscription stopped on an error and no onError was given', error);
}
