import { Inject, Injectable } from '@nestjs/common';
import {
  ExistingProgram,
  PROGRAM_SPEND_WINDOWS,
  programLimitBreach,
  type ProgramLimitBreach,
  programWindowStart,
  ProgramWindowName,
  ProgramWindowSpend,
  spendAfterCredits,
  windowsToTally,
} from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import { programSpendTally, type ReadModelClient } from '@ledger/read-model';
import { EVENT_STORE, LEDGER_CONFIG, LedgerConfig, ProjectionWatcher, READ_MODEL } from '@ledger/runtime';

/**
 * Platform limits span every card of a program. They are checked against the transactions read
 * model, not a consistency boundary: serializing all of a program's cards through one stream would
 * cap the whole program's throughput. Concurrent authorizations can therefore overshoot a platform
 * limit by what is in flight; per-card limits never do (docs/declines.md).
 *
 * Authorizations answer without waiting for the read models, so the tally first waits until they
 * show everything committed before it: an answered authorization always counts in the next one.
 */
@Injectable()
export class ProgramSpend {
  constructor(
    @Inject(READ_MODEL) private readonly readModel: ReadModelClient,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly watcher: ProjectionWatcher,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  async limitExceeded(program: ExistingProgram, amount: number, now: Date): Promise<ProgramLimitBreach | null> {
    const windows = windowsToTally(program.spendLimits, program.accountSpendLimits);
    if (windows.length > 0) await this.readModelsCaughtUp();
    const spent: Record<ProgramWindowName, bigint> = { daily: 0n, weekly: 0n, monthly: 0n, lifetime: 0n };
    await Promise.all(windows.map(async (window) => (spent[window] = await this.spentIn(program.programToken, window, now))));
    return programLimitBreach(program.spendLimits, program.accountSpendLimits, amount, spent satisfies ProgramWindowSpend);
  }

  private async readModelsCaughtUp(): Promise<void> {
    const head = await this.store.headPosition();
    if (head) await this.watcher.waitFor(head, this.config.readYourWritesTimeoutMs);
  }

  private async spentIn(programToken: string, window: ProgramWindowName, now: Date): Promise<bigint> {
    return spendAfterCredits(await programSpendTally(this.readModel, programToken, programWindowStart(PROGRAM_SPEND_WINDOWS[window], now)));
  }
}
