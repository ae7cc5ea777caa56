import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AuthenticatedRequest, callingProgramOf } from '@ledger/auth';
import { type CommandOrigin } from '@ledger/contracts';

/** Every command carries the caller's program and the request id as its correlation id. */
export function commandOrigin(programToken: string, request: FastifyRequest): CommandOrigin {
  return { programToken, correlationId: request.id, causationId: null };
}

/** A write route's command origin: the calling program (ApiKeyGuard's) and this request's id. */
export const CallerOrigin = createParamDecorator((_data: unknown, context: ExecutionContext): CommandOrigin => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest & FastifyRequest>();
  return commandOrigin(callingProgramOf(request), request);
});
