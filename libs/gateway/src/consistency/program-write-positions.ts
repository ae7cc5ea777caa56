import { Inject, Injectable } from '@nestjs/common';
import { comparePositions, GlobalPosition, parsePosition } from '@ledger/event-store';
import { LEDGER_CONFIG, LedgerConfig, ProjectionWatcher } from '@ledger/runtime';

/**
 * Read-your-writes without making writes wait: each write answered here leaves its position (a
 * consistency token) under its program, and a read for that program first waits until the read
 * models have reached it. Only reads that follow a write wait, and only for what they need; the
 * authorization answers as soon as its one commit is done.
 *
 * Kept per gateway process: a client whose read reaches another gateway than its write is covered by
 * the writes that gateway still acknowledges the old way (every write but the authorization), not by
 * this (docs/architecture.md, read-your-writes).
 */
@Injectable()
export class ProgramWritePositions {
  private readonly latest = new Map<string, GlobalPosition>();

  constructor(
    private readonly watcher: ProjectionWatcher,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  record(programToken: string, position: string | null): void {
    if (position === null) return;
    const written = parsePosition(position);
    const known = this.latest.get(programToken);
    if (!known || comparePositions(written, known) > 0) this.latest.set(programToken, written);
  }

  /** Resolves once the read models show every write this gateway answered for the program. */
  async caughtUp(programToken: string): Promise<void> {
    const position = this.latest.get(programToken);
    if (!position) return;
    await this.watcher.waitFor(position, this.config.readYourWritesTimeoutMs);
    // Reached: later reads need not wait for it again (unless a newer write replaced it meanwhile).
    if (this.latest.get(programToken) === position) this.latest.delete(programToken);
  }
}
