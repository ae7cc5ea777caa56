import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { declaredInputs } from './declared-inputs';
import { RequestInvalid } from './errors';

interface RequestInput {
  query?: Record<string, unknown>;
  body?: unknown;
}

/**
 * Every route takes the query parameters its @Query() DTO documents and nothing else, each given
 * once, and a body only if it declares a @Body(); so a route with no @Query() DTO refuses any query
 * parameter, by construction rather than route by route. The program API runs it as its last guard
 * but one (api-routes.ts), after the api-key guard, so the 400 comes after a 401 and before the
 * pipes and a 404 of the handler's; GlobalDeclaredInputGuard runs it on every other route.
 *
 * A guard rather than an interceptor: a route with any interceptor pays Nest's interceptor chain
 * (an AsyncResource and RxJS pipeline per interceptor) on every request, a guard only its call.
 */
@Injectable()
export class DeclaredInputGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<RequestInput>();
    const inputs = declaredInputs(context.getClass(), context.getHandler());
    const problems: string[] = [];
    for (const key in request.query) {
      if (!inputs.queryKeys.has(key)) problems.push(`${key} is not a known query parameter`);
      else if (typeof request.query[key] !== 'string') problems.push(`${key} must be given once`);
    }
    if (!inputs.body && hasContent(request.body)) problems.push('This endpoint takes no request body');
    if (problems.length > 0) throw new RequestInvalid(problems.join('; '));
    return true;
  }
}

/** Whether a route's controller or handler runs DeclaredInputGuard itself, per handler. */
const checkedByRoute = new WeakMap<Function, boolean>();

/**
 * The check on the routes that do not run DeclaredInputGuard among their own guards (probes,
 * dashboard): a global guard, after the rate limiter. The program API's routes are left to their
 * own guard, which runs after their api-key guard.
 */
@Injectable()
export class GlobalDeclaredInputGuard extends DeclaredInputGuard {
  override canActivate(context: ExecutionContext): boolean {
    return runsItself(context.getClass(), context.getHandler()) || super.canActivate(context);
  }
}

function runsItself(controller: Function, handler: Function): boolean {
  let runs = checkedByRoute.get(handler);
  if (runs === undefined) {
    const guards = [...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[]) ?? []), ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[]) ?? [])];
    runs = guards.includes(DeclaredInputGuard);
    checkedByRoute.set(handler, runs);
  }
  return runs;
}

/** An empty object is what some clients send for "no parameters"; anything else is content. */
function hasContent(body: unknown): boolean {
  if (body === undefined) return false;
  return !(body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
}
