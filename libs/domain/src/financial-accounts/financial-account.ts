import { createHash } from 'node:crypto';
import { NotFound } from '../core/domain-error';
import type { ProgramState } from '../programs/program';

/**
 * A program's financial accounts (Lithic's): the ISSUING account its cards spend from. Lithic's
 * RESERVE and OPERATING accounts hold money the program moves in and out by ACH; this ledger has no
 * such movements (funding sources are drawn at settlement), so it has only the ISSUING account.
 *
 * The account is no new fact: every program has exactly one, from its creation, so it is derived
 * from the program rather than recorded. Its token is made from a SHA-1 of the program's token (as a
 * name-based UUID is) and shaped as a version 4 UUID, as every token the API takes is: stable, and
 * the same for programs created before accounts existed.
 */
export const FINANCIAL_ACCOUNT_TYPES = ['ISSUING'] as const;
export type FinancialAccountType = (typeof FINANCIAL_ACCOUNT_TYPES)[number];

/** Lithic's statuses of a financial account, by the program's state. */
export type FinancialAccountStatus = 'OPEN' | 'SUSPENDED' | 'CLOSED';

/** The namespace of the tokens derived here (accounts, statements): a fixed random UUID, so no name-based token made elsewhere coincides. */
const FINANCIAL_ACCOUNT_NAMESPACE = Buffer.from('6f1d2c9e4b7a4e0f8d3c5a9b1e2f7c40', 'hex');

/** A token made from a name alone (SHA-1, as a name-based UUID), shaped as a version 4 UUID. */
export function hashedToken(name: string): string {
  const hash = createHash('sha1').update(FINANCIAL_ACCOUNT_NAMESPACE).update(name).digest();
  hash[6] = (hash[6] & 0x0f) | 0x40;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function financialAccountToken(programToken: string, type: FinancialAccountType): string {
  return hashedToken(`${programToken.toLowerCase()}/${type}`);
}

/** A paused program's account takes no spend for now (SUSPENDED); a closed one's never again. */
export function financialAccountStatus(programState: ProgramState): FinancialAccountStatus {
  return programState === 'ACTIVE' ? 'OPEN' : programState === 'PAUSED' ? 'SUSPENDED' : 'CLOSED';
}

/** No financial account under the token for the calling program: another program's is reported exactly like a missing one. */
export class FinancialAccountNotFound extends NotFound {
  static override readonly code = 'financial_account_not_found';
  constructor(readonly financialAccountToken: string) {
    super(`Financial account ${financialAccountToken} not found`, 'financial_account_token');
  }
}
