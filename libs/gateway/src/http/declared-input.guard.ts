import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import type { Observable } from 'rxjs';
import { declaredInputs } from './declared-inputs';
import { RequestInvalid } from './errors';

/**
 * Every route takes the query parameters its @Query() DTO documents and nothing else, each given
 * once, and a body only if it declares a @Body(); so a route with no @Query() DTO refuses any query
 * parameter, by construction rather than route by route. Runs after the api-key guard and before
 * the pipes and the handler, so the 400 comes before a 404 of the handler's.
 */
@Injectable()
export class DeclaredInputInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<Request>();
    const inputs = declaredInputs(context.getClass(), context.getHandler());
    const problems: string[] = [];
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (!inputs.queryKeys.has(key)) problems.push(`${key} is not a known query parameter`);
      else if (typeof value !== 'string') problems.push(`${key} must be given once`);
    }
    if (!inputs.body && hasContent(request.body)) problems.push('This endpoint takes no request body');
    if (problems.length > 0) throw new RequestInvalid(problems.join('; '));
    return next.handle();
  }
}

/** An empty object is what some clients send for "no parameters"; anything else is content. */
function hasContent(body: unknown): boolean {
  if (body === undefined) return false;
  return !(body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
}
