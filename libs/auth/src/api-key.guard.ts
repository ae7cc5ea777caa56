import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { API_KEY_DIRECTORY, ApiKeyDirectory, authenticate } from './api-keys';

export interface AuthenticatedRequest extends FastifyRequest {
  programToken?: string;
}

/** Every route needs an api-key; the program it belongs to scopes everything the call can see. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(@Inject(API_KEY_DIRECTORY) private readonly directory: ApiKeyDirectory) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    request.programToken = await authenticate(this.directory, request.headers.authorization);
    return true;
  }
}

/** The calling program's token, set by ApiKeyGuard. */
export const CallingProgram = createParamDecorator((_data: unknown, context: ExecutionContext): string => callingProgramOf(context.switchToHttp().getRequest()));

/** The program ApiKeyGuard found the request's api-key to belong to. */
export function callingProgramOf(request: AuthenticatedRequest): string {
  if (!request.programToken) throw new Error('CallingProgram used on a route without ApiKeyGuard');
  return request.programToken;
}
