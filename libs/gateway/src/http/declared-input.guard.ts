import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { RequestInvalid } from './errors';

/** What an operation takes: the query parameters and whether a body, as the API's OpenAPI document says. */
interface DeclaredInputs {
  readonly queryKeys: ReadonlySet<string>;
  readonly body: boolean;
  /** An operation of the program API (it names the api-key scheme): its own guards check its inputs, after the api-key's. */
  readonly programApi: boolean;
}

/** A route the document does not describe (the dashboard) takes neither. */
const NOTHING: DeclaredInputs = { queryKeys: new Set(), body: false, programApi: false };

/** Per Fastify instance: `METHOD /path/:param` to its declared inputs. */
const declaredRoutes = new WeakMap<object, ReadonlyMap<string, DeclaredInputs>>();

/**
 * Reads each operation's inputs from the document built from the controllers' own decorators
 * (@Query() DTOs become its query parameters, @Body() its request body), so a route takes exactly
 * what its clients are told it takes, and a new route is covered without being listed anywhere.
 */
export function declareInputs(fastify: object, document: OpenAPIObject): void {
  const routes = new Map<string, DeclaredInputs>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, { parameters?: { in?: string; name?: string }[]; requestBody?: unknown; responses?: unknown; security?: unknown[] }][]) {
      if (!operation?.responses) continue;
      const queryKeys = new Set((operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name!));
      const programApi = (operation.security?.length ?? 0) > 0;
      routes.set(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`, { queryKeys, body: operation.requestBody !== undefined, programApi });
    }
  }
  declaredRoutes.set(fastify, routes);
}

/**
 * Every route takes the query parameters it declares and nothing else, each given once, and a body
 * only if it declares one; so a route with no @Query() DTO refuses any query parameter, by
 * construction rather than route by route. The program API runs it as a guard of its own
 * (api-routes.ts), after the api-key guard, so the 400 comes after a 401 and before the pipes and a
 * 404 of the handler's; every other route (probes, dashboard) has it from the preValidation hook
 * (`refuseUndeclaredInputs`), so those routes pass no Nest guard at all.
 *
 * A guard rather than an interceptor: a route with any interceptor pays Nest's interceptor chain
 * (an AsyncResource and RxJS pipeline per interceptor) on every request, a guard only its call.
 */
@Injectable()
export class DeclaredInputGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    refuse(request, declaredInputsOf(request));
    return true;
  }
}

/** The check for the routes outside the program API; called only for a request with a query or a body (nothing else can break it). */
export function refuseUndeclaredInputs(request: FastifyRequest): void {
  if (request.is404) return;
  const inputs = declaredInputsOf(request);
  if (!inputs.programApi) refuse(request, inputs);
}

function declaredInputsOf(request: FastifyRequest): DeclaredInputs {
  const routes = declaredRoutes.get(request.server);
  if (!routes) throw new Error('The routes\' declared inputs are unknown: setupOpenApi was not called on this app');
  return routes.get(`${request.method === 'HEAD' ? 'GET' : request.method} ${request.routeOptions.url}`) ?? NOTHING;
}

function refuse(request: FastifyRequest, inputs: DeclaredInputs): void {
  const query = request.query as Record<string, unknown> | undefined;
  const problems: string[] = [];
  for (const key in query) {
    if (!inputs.queryKeys.has(key)) problems.push(`${key} is not a known query parameter`);
    else if (typeof query[key] !== 'string') problems.push(`${key} must be given once`);
  }
  if (!inputs.body && hasContent(request.body)) problems.push('This endpoint takes no request body');
  if (problems.length > 0) throw new RequestInvalid(problems.join('; '));
}

/** An empty object is what some clients send for "no parameters"; anything else is content. */
function hasContent(body: unknown): boolean {
  if (body === undefined) return false;
  return !(body !== null && typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
}
