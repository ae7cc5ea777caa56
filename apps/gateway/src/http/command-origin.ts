import type { CommandOrigin } from '@ledger/event-store';
import { RequestWithId, requestIdOf } from './request-id';

/** Every command carries the caller's program and the request id as its correlation id. */
export function commandOrigin(programToken: string, request: RequestWithId): CommandOrigin {
  return { programToken, correlationId: requestIdOf(request), causationId: null };
}

