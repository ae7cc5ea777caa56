import type { CommandAccepted } from '@ledger/contracts';
import { formatPosition, type GlobalPosition } from '@ledger/event-store';

/** What a handler answers after running a command through the pipeline. */
export function commandAccepted(token: string, outcome: { readonly position?: GlobalPosition }): CommandAccepted {
  return { token, position: outcome.position ? formatPosition(outcome.position) : null };
}
