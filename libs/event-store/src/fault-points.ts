/**
 * Test-only hooks on the paths that write a card and its transaction: a test injects FaultPoints that throw (an in-process
 * failure) or kill the process at one of these places. Production wiring passes none (NO_FAULTS), and
 * no configuration variable turns one on.
 */
export const AUTHORIZATION_FAULT_POINTS = [
  /** The service has the folds it decides on (the authorization: the program's and the card's). */
  'folds-loaded',
  /** The program's platform limits were tallied (the checks are complete). */
  'program-spend-tallied',
  /** The program's authorization stream answered (or was not asked). */
  'authorization-stream-asked',
  /** The decision is encoded; its append is about to be sent. */
  'append-sent',
  /** The append committed; its reply has not reached the pipeline's caller yet. */
  'append-committed',
  /** The transaction-service has the decision and is about to reply to the gateway. */
  'decision-replied',
  /** The gateway has the decision and is about to answer the HTTP request. */
  'gateway-answering',
] as const;

export type FaultPoint = (typeof AUTHORIZATION_FAULT_POINTS)[number];

/**
 * The points every other simulation that writes a card and its transaction (void, clearing, advice,
 * return, return reversal) passes: the service's folds, the append, its reply, the gateway's answer.
 */
export const SIMULATION_FAULT_POINTS = ['folds-loaded', 'append-sent', 'append-committed', 'decision-replied', 'gateway-answering'] as const satisfies readonly FaultPoint[];

export interface FaultPoints {
  /** Called on passing a point; throws (or ends the process) where a test armed it. */
  reached(point: FaultPoint): void;
}

export const NO_FAULTS: FaultPoints = { reached: () => undefined };
