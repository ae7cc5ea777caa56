import { Inject, Injectable } from '@nestjs/common';
import { CommandAccepted } from '@ledger/contracts';
import { comparePositions, GlobalPosition, parsePosition } from '@ledger/event-store';
import { LEDGER_CONFIG, LedgerConfig, ProjectionWatcher } from '@ledger/runtime';

/**
 * Read your writes (design invariant 3): a write's answer, or the reads after it, wait for the read
 * models. A write answered at once leaves its position (a consistency token) under its program, and
 * a read for that program first waits until the read models have reached it (ReadsAfterWritesGuard).
 *
 * Those positions are kept per gateway process: a client whose read reaches another gateway than its
 * write is covered by the writes that gateway still acknowledges the old way (every write but the
 * authorization), not by them (docs/architecture.md, read-your-writes).
 */
@Injectable()
export class WriteAcknowledger {
  private readonly latest = new Map<string, GlobalPosition>();

  constructor(
    private readonly watcher: ProjectionWatcher,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  /**
   * The write answers at once; the program's next read waits for it instead. For the authorization,
   * whose answer must not wait on the projector: a write that stands never answers 503 for a read
   * model that is behind.
   */
  readsWaitFor(programToken: string, accepted: CommandAccepted): void {
    if (accepted.position === null) return;
    const written = parsePosition(accepted.position);
    const known = this.latest.get(programToken);
    if (!known || comparePositions(written, known) > 0) this.latest.set(programToken, written);
  }

  /** Resolves once the read models show every write this gateway answered at once for the program. */
  async caughtUp(programToken: string): Promise<void> {
    const position = this.latest.get(programToken);
    if (!position) return;
    await this.watcher.waitFor(position, this.config.readYourWritesTimeoutMs);
    // Reached: later reads need not wait for it again (unless a newer write replaced it meanwhile).
    if (this.latest.get(programToken) === position) this.latest.delete(programToken);
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
