import type { SubscribeToAllOptions, Subscription } from '../event-store.port';
import { validBatchSize } from './batch-size';
import { deferred, reportSubscriptionError, SubscriptionStoppedError, WakeSignal } from './wake-signal';

/**
 * What both adapters' subscriptions share: the batch size, the caught-up signal, the wake-up, a stop
 * that waits for the batch in hand, and how a run ends (an error rejects `caughtUp` and reaches
 * onError once; a stop rejects a `caughtUp` that never came). Each adapter writes its own loop.
 */
export abstract class BatchedSubscription implements Subscription {
  readonly caughtUp: Promise<void>;
  protected readonly caughtUpSignal = deferred<void>();
  protected readonly wake = new WakeSignal();
  protected readonly batchSize: number;
  protected stopping = false;
  private finished: Promise<void> = Promise.resolve();

  protected constructor(protected readonly options: SubscribeToAllOptions) {
    this.batchSize = validBatchSize(options.batchSize);
    this.caughtUp = this.caughtUpSignal.promise;
  }

  /** Called last by the adapter's constructor, once its own fields are set. */
  protected start(onFinished: () => void): void {
    this.finished = this.runToEnd().finally(onFinished);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.notify();
    await this.finished;
  }

  /** The adapter's loop, catch-up then live, until `stopping`; throws to end on an error. */
  protected abstract consume(): Promise<void>;

  /** Lets go of what the loop held (a listener, a server stream), however the loop ended. */
  protected abstract release(): Promise<void>;

  private async runToEnd(): Promise<void> {
    try {
      await this.consume();
    } catch (error) {
      this.stopping = true;
      this.caughtUpSignal.reject(error);
      reportSubscriptionError(this.options.onError, error);
    } finally {
      this.caughtUpSignal.reject(new SubscriptionStoppedError());
      await this.release();
    }
  }
}
