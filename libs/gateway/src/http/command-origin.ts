import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { AuthenticatedRequest, callingProgramOf } from '@ledger/auth';
import { type CommandOrigin } from '@ledger/contracts';
import { RequestWithId, requestIdOf } from './request-id';

/** Every command carries the caller's program and the request id as its correlation id. */
export function commandOrigin(programToken: string, request: RequestWithId): CommandOrigin {
  return { programToken, correlationId: requestIdOf(request), causationId: null };
}

/** A write route's command origin: the calling program (ApiKeyGuard's) and this request's id. */
export const CallerOrigin = createParamDecorator((_data: unknown, context: ExecutionContext): CommandOrigin => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest & RequestWithId>();
  return commandOrigin(callingProgramOf(request), request);
});
