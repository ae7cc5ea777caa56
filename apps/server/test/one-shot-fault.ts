import type { FaultPoint, FaultPoints } from '@ledger/event-store';

/** Fault points that throw once: armed at one point, the next pass through it fails, later ones go through. */
export class OneShotFault implements FaultPoints {
  private armed: FaultPoint | null = null;
  fired = 0;

  arm(point: FaultPoint): void {
    this.armed = point;
  }

  reached(point: FaultPoint): void {
    if (point !== this.armed) return;
    this.armed = null;
    this.fired++;
    throw new Error(`injected fault at ${point}`);
  }
}

/** Where the decision is recorded: a failure before it leaves nothing, a failure after it must not hide it. */
export const AFTER_THE_COMMIT: readonly FaultPoint[] = ['append-committed', 'decision-replied', 'gateway-answering'];
