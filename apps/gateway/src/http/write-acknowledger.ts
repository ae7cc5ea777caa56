import { Inject, Injectable } from '@nestjs/common';
import { CommandAccepted } from '@ledger/contracts';
import { parsePosition } from '@ledger/event-store';
import { LEDGER_CONFIG, LedgerConfig, ProjectionWatcher } from '@ledger/runtime';

/** Holds a write's answer until the read models show it (design invariant 3, read your writes). */
@Injectable()
export class WriteAcknowledger {
  constructor(
    private readonly watcher: ProjectionWatcher,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  async visible(accepted: CommandAccepted): Promise<void> {
    if (accepted.position !== null) await this.watcher.waitFor(parsePosition(accepted.position), this.config.readYourWritesTimeoutMs);
  }
}
