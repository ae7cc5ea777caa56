import { Inject, Injectable } from '@nestjs/common';
import { CommandAccepted } from '@ledger/contracts';
import { parsePosition } from '@ledger/event-store';
import { LEDGER_CONFIG, LedgerConfig, ProjectionWatcher } from '@ledger/runtime';
import { ProgramWritePositions } from '../consistency/program-write-positions';

/** Read your writes (design invariant 3): a write's answer, or the reads after it, wait for the read models. */
@Injectable()
export class WriteAcknowledger {
  constructor(
    private readonly watcher: ProjectionWatcher,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly positions: ProgramWritePositions,
  ) {}

  /**
   * The write answers at once; the program's next read waits for it instead. For the authorization,
   * whose answer must not wait on the projector: a write that stands never answers 503 for a read
   * model that is behind.
   */
  readsWaitFor(programToken: string, accepted: CommandAccepted): void {
    this.positions.record(programToken, accepted.position);
  }

  /** Holds the answer until the read models show the write. */
  async visible(accepted: CommandAccepted): Promise<void> {
    if (accepted.position !== null) await this.watcher.waitFor(parsePosition(accepted.position), this.config.readYourWritesTimeoutMs);
  }

  /** A write's answer: what `read` finds once the read models show the write (the resource as it now stands). */
  async answer<T>(accepted: CommandAccepted, read: () => Promise<T>): Promise<T> {
    await this.visible(accepted);
    return read();
  }
}
