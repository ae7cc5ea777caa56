import { Inject, Injectable } from '@nestjs/common';
import {
  AuthorizationChecks,
  ExistingProgram,
  PROGRAM_SPEND_WINDOWS,
  programLimitExceeded,
  ProgramSpendWindow,
  SpendTally,
  spendAfterCredits,
  windowStart,
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

  async limitExceeded(program: ExistingProgram, amount: number, now: Date): Promise<AuthorizationChecks['globalLimitExceeded']> {
    const limits = program.spendLimits;
    if (limits.weekly > 0 || limits.monthly > 0) await this.readModelsCaughtUp();
    const spentIn = async (limit: number, window: ProgramSpendWindow) => (limit > 0 ? spendAfterCredits(await this.tally(program.programToken, window, now)) : 0n);
    const [weekly, monthly] = await Promise.all([spentIn(limits.weekly, PROGRAM_SPEND_WINDOWS.weekly), spentIn(limits.monthly, PROGRAM_SPEND_WINDOWS.monthly)]);
    return programLimitExceeded(limits, amount, { weekly, monthly });
  }

  private async readModelsCaughtUp(): Promise<void> {
    const head = await this.store.headPosition();
    if (head) await this.watcher.waitFor(head, this.config.readYourWritesTimeoutMs);
  }

  private async tally(programToken: string, window: ProgramSpendWindow, now: Date): Promise<SpendTally> {
    const start = windowStart(window, now);
    if (!start) throw new Error(`The program window ${window} has no start`);
    return programSpendTally(this.readModel, programToken, start);
  }
}
