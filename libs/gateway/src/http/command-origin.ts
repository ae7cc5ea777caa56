import { RequestWithId, requestIdOf } from './request-id';
import { type CommandOrigin } from '@ledger/contracts';

/** Every command carries the caller's program and the request id as its correlation id. */
export function commandOrigin(programToken: string, request: RequestWithId): CommandOrigin {
  return { programToken, correlationId: requestIdOf(request), causationId: null };
}

