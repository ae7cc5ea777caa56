import { INestApplication } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { BODY_LIMIT_BYTES } from './body-limit';
import { ErrorBodyFilter } from './error-body.filter';
import { MethodNotAllowed, UnsupportedMediaType } from './errors';
import { writeJson } from './exact-json';
import { inspectRequestInput } from './hostile-input';
import { pathOf } from './http-answer';
import { sendsNonJsonBody } from './json-content-type';
import type { RequestWithId } from './request-id';
import { RouteTable } from './route-table';
import { StrictValidationPipe } from './strict-validation.pipe';


/**
 * Options of the Fastify instance that keep the routing rules the API had on Express: a trailing
 * slash is the same path, and a path parameter of any length reaches validation (which answers 400
 * or 404) instead of the router's 404 at 100 characters.
 */
export const FASTIFY_OPTIONS = { routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 }, bodyLimit: BODY_LIMIT_BYTES };

const ROUTES = Symbol('route table');

/**
 * The same HTTP rules as configureHttp, on NestJS's Fastify adapter: request ids, 405 with `Allow`
 * for a known path asked with another method, 415 for a body that is not JSON, our own JSON parser
 * (malformed JSON and a body over the limit get the JSON error body), the hostile-input checks,
 * strict validation, and exact JSON (bigints as their digits) for every answer.
 * Create the app with `new FastifyAdapter(FASTIFY_OPTIONS)` and `{ bodyParser: false }` first.
 */
export function configureFastifyHttp(app: INestApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const routes = new RouteTable();
  (fastify as unknown as Record<symbol, RouteTable>)[ROUTES] = routes;
  fastify.addHook('onRoute', (route) => routes.add(route.method, route.url));

  fastify.addHook('onRequest', async (request, reply) => {
    const id = randomUUID();
    (request as unknown as RequestWithId).requestId = id;
    (request.raw as { requestId?: string }).requestId = id;
    reply.header('x-request-id', id);
    if (request.is404) {
      const allowed = routes.allowedMethods(pathOf(request));
      if (allowed !== null && !allowed.includes(request.method)) {
        reply.header('allow', allowed.join(', '));
        throw new MethodNotAllowed(request.method, allowed);
      }
    }
    if (sendsNonJsonBody(request.headers)) throw new UnsupportedMediaType();
  });

  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (request, text, done) => {
    try {
      done(null, parseJsonBody(request, text as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // A content type with no body to parse (Content-Length: 0) is no body at all, as on Express;
  // one with a body was refused with 415 in onRequest.
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  fastify.addHook('preValidation', async (request) => inspectRequestInput(request));
  fastify.setReplySerializer((payload) => writeJson(payload) ?? '');
  app.useGlobalFilters(new ErrorBodyFilter());
  app.useGlobalPipes(new StrictValidationPipe());
}

/** The routes the Fastify instance of this app dispatches, HEAD left out. */
export function fastifyRoutes(app: INestApplication): { method: string; pattern: string }[] {
  const routes = (app.getHttpAdapter().getInstance() as Record<symbol, RouteTable | undefined>)[ROUTES];
  if (!routes) throw new Error('configureFastifyHttp was not called on this app');
  return routes.list();
}

/** body-parser's rules and its error shapes, which error-status.ts maps: UTF-8 only, an empty body is {}. */
function parseJsonBody(request: FastifyRequest, text: string): unknown {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') throw Object.assign(new Error('unsupported charset'), { status: 415, type: 'charset.unsupported' });
  if (text.length === 0) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw Object.assign(new Error('invalid JSON'), { status: 400, type: 'entity.parse.failed' });
  }
}
