import { Inject, Injectable } from '@nestjs/common';
import { AuthorizationChecks, ExistingProgram, oneMonthBefore } from '@ledger/domain';
import type { ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';

const COUNTED_STATUSES = ['PENDING', 'SETTLING', 'SETTLED'];
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Platform limits span every card of a program. They are checked against the transactions read
 * model, not a consistency boundary: serializing all of a program's cards through one stream would
 * cap the whole program's throughput. Concurrent authorizations can therefore overshoot a platform
 * limit by what is in flight; per-card limits never do (docs/declines.md).
 */
@Injectable()
export class ProgramSpend {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async limitExceeded(program: ExistingProgram, amount: number, now: Date): Promise<AuthorizationChecks['globalLimitExceeded']> {
    const limits = program.spendLimits;
    if (limits.transaction > 0 && amount > limits.transaction) return 'GLOBAL_TRANSACTION_LIMIT';
    if (limits.weekly > 0 && (await this.spentSince(program.programToken, new Date(now.getTime() - WEEK_MS))) + amount > limits.weekly) {
      return 'GLOBAL_WEEKLY_LIMIT';
    }
    if (limits.monthly > 0 && (await this.spentSince(program.programToken, oneMonthBefore(now))) + amount > limits.monthly) {
      return 'GLOBAL_MONTHLY_LIMIT';
    }
    return null;
  }

  private async spentSince(programToken: string, since: Date): Promise<number> {
    const result = await this.readModel.transaction.aggregate({
      _sum: { amount: true },
      where: { programToken, status: { in: COUNTED_STATUSES }, created: { gte: since } },
    });
    return Number(result._sum.amount ?? 0n);
  }
}
