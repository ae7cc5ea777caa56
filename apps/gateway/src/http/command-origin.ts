import type { CommandOrigin } from '@ledger/event-store';
import { RequestWithId, requestIdOf } from './request-id';

/** Every command carries the caller's program and the request id as its correlation id. */
export function commandOrigin(programToken: string, request: RequestWithId): CommandOrigin {
  return { programToken, correlationId: requestIdOf(request), causationId: null };
}

/** UTC midnight of a YYYY-MM-DD date: begin is inclusive, end exclusive (spec 4.7, 4.8). */
export function startOfDay(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}
