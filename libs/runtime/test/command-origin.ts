import type { CommandOrigin } from '@ledger/contracts';

/** Who sent a spec's command: the program itself, in correlation `corr-1`, caused by no earlier event. */
export function commandOrigin(programToken: string): CommandOrigin {
  return { programToken, correlationId: 'corr-1', causationId: null };
}
