import { Inject, Injectable } from '@nestjs/common';
import type { FinancialAccountResponse } from '@ledger/contracts';
import { FinancialAccountNotFound, financialAccountStatus, financialAccountToken, ProgramNotFound, type ProgramState } from '@ledger/domain';
import type { ReadModelClient } from '@ledger/read-model';
import { READ_MODEL } from '@ledger/runtime';

/** The calling program's financial account as the routes need it: its token and creation, and Lithic's shape. */
export interface ProgramFinancialAccount {
  readonly token: string;
  readonly programToken: string;
  readonly created: Date;
  readonly state: ProgramState;
}

/**
 * The program's financial accounts, derived from its read-model row: the ISSUING account exists for
 * every program, those created before accounts existed too, so nothing is stored for it.
 */
@Injectable()
export class ProgramFinancialAccounts {
  constructor(@Inject(READ_MODEL) private readonly readModel: ReadModelClient) {}

  async issuing(programToken: string): Promise<ProgramFinancialAccount> {
    const program = await this.readModel.program.findUnique({ where: { token: programToken }, select: { created: true, state: true } });
    if (!program) throw new ProgramNotFound(programToken);
    return { token: financialAccountToken(programToken, 'ISSUING'), programToken, created: program.created, state: program.state as ProgramState };
  }

  /** The program's account under this token; any other token (another program's included) is not found. */
  async owned(programToken: string, token: string): Promise<ProgramFinancialAccount> {
    const account = await this.issuing(programToken);
    if (account.token !== token) throw new FinancialAccountNotFound(token);
    return account;
  }
}

export function presentFinancialAccount(account: ProgramFinancialAccount): FinancialAccountResponse {
  const created = account.created.toISOString();
  return {
    token: account.token,
    account_token: account.programToken,
    created,
    credit_configuration: null,
    is_for_benefit_of: false,
    nickname: null,
    status: financialAccountStatus(account.state),
    substatus: null,
    type: 'ISSUING',
    updated: created,
    user_defined_status: null,
  };
}
