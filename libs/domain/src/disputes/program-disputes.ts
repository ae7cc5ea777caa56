import type { Decider } from '../core/decider';
import type { DisputeEvent } from './dispute';

/**
 * The program's disputes, in the order they were filed, on a stream of the program's
 * (`program-disputes-<program token>`): what a list reads, as no read-model table holds disputes.
 * Written with each filing, in the same write; a dispute is never unlisted (a withdrawn one is
 * CASE_CLOSED and still listed, as Lithic lists it).
 */
export const PROGRAM_DISPUTES_STREAM_CATEGORY = 'program-disputes';
export const programDisputesStreamId = (programToken: string): string => `${PROGRAM_DISPUTES_STREAM_CATEGORY}-${programToken}`;
export const isProgramDisputesStream = (streamId: string): boolean => streamId.startsWith(`${PROGRAM_DISPUTES_STREAM_CATEGORY}-`);

export interface DisputeListed {
  readonly type: 'DisputeListed';
  readonly data: { readonly programToken: string; readonly disputeToken: string; readonly at: string };
}

export interface ProgramDisputes {
  readonly disputeTokens: readonly string[];
}

/** The listing a filing calls for: the dispute's token, unless the program already lists it. */
export function listingOf(disputes: ProgramDisputes, events: readonly DisputeEvent[]): DisputeListed[] {
  return events.flatMap((event) =>
    event.type === 'DisputeFiled' && !disputes.disputeTokens.includes(event.data.disputeToken)
      ? [{ type: 'DisputeListed' as const, data: { programToken: event.data.programToken, disputeToken: event.data.disputeToken, at: event.data.at } }]
      : [],
  );
}

export const programDisputesFolder: Pick<Decider<never, DisputeListed, ProgramDisputes, never>, 'initialState' | 'evolve'> = {
  initialState: () => ({ disputeTokens: [] }),
  evolve: (disputes, event) => ({ disputeTokens: [...disputes.disputeTokens, event.data.disputeToken] }),
};
