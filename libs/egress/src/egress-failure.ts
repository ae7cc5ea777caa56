/**
 * Why an outbound call got no answer, in the few words a program may see. The details (errno,
 * address, port) are in {@link EgressFailure.detail}, for the server log only: shown to the program
 * they would tell it what listens where inside our network.
 */
export const EGRESS_FAILURE_CLASSES = ['refused_by_egress_policy', 'timeout', 'connection_failed'] as const;
export type EgressFailureClass = (typeof EGRESS_FAILURE_CLASSES)[number];

export class EgressFailure extends Error {
  constructor(
    readonly failure: EgressFailureClass,
    /** For the server log: errno, address, port, what the policy refused. Never for the program. */
    readonly detail: string,
  ) {
    super(`${failure}: ${detail}`);
    this.name = 'EgressFailure';
  }
}
