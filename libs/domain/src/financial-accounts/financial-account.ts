import { createHash } from 'node:crypto';
import type { ProgramState } from '../programs/program';

/**
 * A program's financial accounts (Lithic's): the ISSUING account its cards spend from. Lithic's
 * RESERVE and OPERATING accounts hold money the program moves in and out by ACH; this ledger has no
 * such movements (funding sources are drawn at settlement), so it has only the ISSUING account.
 *
 * The account is no new fact: every program has exactly one, from its creation, so it is derived
 * from the program rather than recorded. Its token is a name-based UUID (RFC 9562 version 5) of the
 * program's token: stable, the same for programs created before accounts existed, and different from
 * every random (version 4) token of a card, transaction or program.
 */
export const FINANCIAL_ACCOUNT_TYPES = ['ISSUING'] as const;
export type FinancialAccountType = (typeof FINANCIAL_ACCOUNT_TYPES)[number];

/** Lithic's statuses of a financial account, by the program's state. */
export type FinancialAccountStatus = 'OPEN' | 'SUSPENDED' | 'CLOSED';

/** The namespace of financial account tokens: a fixed random UUID, so no other name-based token can coincide. */
const FINANCIAL_ACCOUNT_NAMESPACE = Buffer.from('6f1d2c9e4b7a4e0f8d3c5a9b1e2f7c40', 'hex');

function nameBasedUuid(name: string): string {
  const hash = createHash('sha1').update(FINANCIAL_ACCOUNT_NAMESPACE).update(name).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function financialAccountToken(programToken: string, type: FinancialAccountType): string {
  return nameBasedUuid(`${programToken.toLowerCase()}/${type}`);
}

/** A paused program's account takes no spend for now (SUSPENDED); a closed one's never again. */
export function financialAccountStatus(programState: ProgramState): FinancialAccountStatus {
  return programState === 'ACTIVE' ? 'OPEN' : programState === 'PAUSED' ? 'SUSPENDED' : 'CLOSED';
}
