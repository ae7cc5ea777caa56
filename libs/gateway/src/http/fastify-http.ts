import { INestApplication, Logger } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { HttpTimeouts } from '@ledger/runtime';
import { BODY_LIMIT_BYTES } from './body-limit';
import { refuseUndeclaredInputs } from './declared-input.guard';
import { answerClientError } from './client-errors';
import { ErrorBodyFilter, sendError } from './error-body.filter';
import { MethodNotAllowed, RequestInvalid, UnsupportedMediaType } from './errors';
import { writeJson } from './exact-json';
import { inspectRequestInput } from './hostile-input';
import { storeClaimedOutcome, takesIdempotencyKey } from './idempotency.guard';
import { refuseNonIntegerLiterals } from './integer-literals';
import { pathOf } from './request-path';
import { contentTypeRefusal, isUtf8 } from './json-content-type';
import { RouteTable } from './route-table';
import { StrictValidationPipe } from './strict-validation.pipe';

/**
 * NestJS's Fastify adapter with the API's routing rules (a trailing slash is the same path; a path
 * parameter of any length reaches validation, which answers 400 or 404, instead of the router's 404
 * at 100 characters) and bounds on slow clients. Swagger UI's assets are served by @fastify/static,
 * which the adapter registers itself.
 */
export class LedgerFastifyAdapter extends FastifyAdapter {
  constructor(timeouts: HttpTimeouts) {
    // The bounds on slow and silent clients (LedgerConfig.httpTimeouts): Fastify sets the request, idle
    // and keep-alive ones; the headers timeout is Node's own server option. Node checks the headers and
    // request timeouts only every `connectionsCheckingInterval` (30 s by default), so that is made a
    // fraction of the shorter one for a connection to be closed close to its bound.
    const checkEveryMs = Math.max(10, Math.min(1000, Math.floor(Math.min(timeouts.headersMs, timeouts.requestMs) / 4)));
    super({
      connectionTimeout: timeouts.idleMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      http: { headersTimeout: timeouts.headersMs, requestTimeout: timeouts.requestMs, connectionsCheckingInterval: checkEveryMs },
      routerOptions: { ignoreTrailingSlash: true, maxParamLength: 8192 },
      bodyLimit: BODY_LIMIT_BYTES,
      // No Nest middleware is configured: without this, @fastify/middie's hook runs on every request to
      // find none. A module that configures middleware must remove this line.
      skipMiddie: true,
      clientErrorHandler: answerClientError,
      // The id is made with the request, before any hook runs, so the request log (started in
      // startLedger's onRequest hook) and every error body carry the same one.
      genReqId: () => randomUUID(),
      // The router refuses a path with a broken %-escape before any hook runs: same error body as
      // everything else, with the id of the request's log line.
      frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
        reply.header('x-request-id', request.id);
        const refused = error.code === 'FST_ERR_BAD_URL' ? new RequestInvalid(`Path ${request.url} is not a valid URL: it has a broken percent escape`) : error;
        sendError(refused, request, reply, new Logger('HTTP'));
      },
    });
  }
}

const ROUTES = Symbol('route table');

/**
 * The API's HTTP rules on NestJS's Fastify adapter: request ids, 405 with `Allow`
 * for a known path asked with another method, 415 for a body that is not JSON, our own JSON parser
 * (malformed JSON and a body over the limit get the JSON error body), the hostile-input checks,
 * strict validation, and exact JSON (bigints as their digits) for every answer.
 * Create the app with `new LedgerFastifyAdapter(config.httpTimeouts)` and `{ bodyParser: false }` first.
 */
export function configureFastifyHttp(app: INestApplication): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  const routes = new RouteTable(fastify);
  (fastify as unknown as Record<symbol, RouteTable>)[ROUTES] = routes;
  fastify.addHook('onRoute', (route) => {
    routes.add(route.method, route.url);
    // Only the routes that can claim an Idempotency-Key store their answers: a hook of the whole
    // instance would run on every answer, GETs and probes included.
    if ([route.method].flat().some(takesIdempotencyKey)) route.onSend = [...[route.onSend ?? []].flat(), storeClaimedOutcome];
  });

  // Callback hooks, not async ones: a promise per hook and request is all an async hook would add.
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // After onRequest, so the request log and the in-flight count (startLedger's onRequest hook) see
  // refused requests too. Fastify's hook runners pass what a callback hook throws on as its error.
  fastify.addHook('preParsing', (request, reply, payload, done) => {
    refuseBeforeParsing(routes, request, reply);
    done(null, payload);
  });

  fastify.removeAllContentTypeParsers();
  // What the parser throws, Fastify passes on as the request's error.
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (request, text, done) => done(null, parseJsonBody(request, text as string)));
  // A content type with no body to parse (Content-Length: 0) is no body at all, as on Express;
  // one with a body was refused with 415 in preParsing.
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  fastify.addHook('preValidation', (request, _reply, done) => {
    // A request with neither a body nor a query string has nothing to inspect.
    if (request.body !== undefined || request.url.includes('?')) {
      inspectRequestInput(request);
      refuseUndeclaredInputs(request);
    }
    done();
  });
  fastify.setReplySerializer((payload) => writeJson(payload) ?? '');
  app.useGlobalFilters(new ErrorBodyFilter());
  app.useGlobalPipes(new StrictValidationPipe());
}

/** 405 with `Allow` for a known path asked with another method, 415 for a body not said to be JSON. */
function refuseBeforeParsing(routes: RouteTable, request: FastifyRequest, reply: FastifyReply): void {
  const path = pathOf(request);
  if (request.is404 || routes.isLiteralPath(path)) {
    const allowed = routes.allowedMethods(path);
    if (allowed !== null && !allowed.includes(request.method)) {
      reply.header('allow', allowed.join(', '));
      throw new MethodNotAllowed(request.method, allowed);
    }
  }
  const refusal = contentTypeRefusal(request.headers);
  if (refusal) throw refusal;
}

/**
 * Every method and path pattern (`/v1/cards/:card_token`) the app's HTTP stack dispatches, read from
 * Fastify's route table, below Nest, so a route registered any way at all (controller, adapter,
 * Swagger) is seen. HEAD is left out: it is answered wherever GET is.
 */
export function dispatchedRoutes(app: INestApplication): { method: string; path: string }[] {
  const routes = (app.getHttpAdapter().getInstance() as Record<symbol, RouteTable | undefined>)[ROUTES];
  if (!routes) throw new Error('configureFastifyHttp was not called on this app');
  return routes.list();
}

/** The API's JSON body: UTF-8 only, an object or an array (never a bare null, number or string), an empty body is {}. */
function parseJsonBody(request: FastifyRequest, text: string): unknown {
  // An empty body passes the header check before it is read; its charset is still not UTF-8.
  if (!isUtf8(request.headers['content-type'] ?? '')) throw new UnsupportedMediaType('Request body must be UTF-8 JSON');
  if (text.length === 0) return {};
  // Made only for a body refused: an error captures its stack as it is made.
  const invalid = () => new RequestInvalid('Request body is not valid JSON');
  const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw invalid();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid();
  }
  refuseNonIntegerLiterals(text);
  return body;
}
