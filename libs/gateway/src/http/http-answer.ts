import type { ServerResponse } from 'node:http';
import { writeJson } from './exact-json';

/**
 * The few things the API's own code does to a request or an answer, on whichever objects the HTTP
 * stack hands over: Express's request and response, or Fastify's request and reply. Everything else
 * goes through Nest, which hides the stack already.
 */
interface FastifyReplyLike {
  readonly raw: { headersSent: boolean; setHeader(name: string, value: string): unknown };
  readonly sent: boolean;
  code(status: number): FastifyReplyLike;
  header(name: string, value: string): FastifyReplyLike;
  type(contentType: string): FastifyReplyLike;
  send(payload?: unknown): FastifyReplyLike;
}

interface ExpressResponseLike {
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  status(status: number): ExpressResponseLike;
  json(body: unknown): unknown;
  end(): unknown;
}

type AnyResponse = FastifyReplyLike | ExpressResponseLike;

function isFastifyReply(response: unknown): response is FastifyReplyLike {
  return typeof (response as FastifyReplyLike).code === 'function' && typeof (response as FastifyReplyLike).raw === 'object';
}

export function headersSent(response: unknown): boolean {
  return isFastifyReply(response) ? response.sent || response.raw.headersSent : (response as ExpressResponseLike).headersSent;
}

export function setHeader(response: unknown, name: string, value: string): void {
  if (isFastifyReply(response)) response.header(name, value);
  else (response as ExpressResponseLike).setHeader(name, value);
}

/** Status, headers and a JSON body (exact integers kept), or no body when it is undefined. */
export function answer(response: unknown, status: number, headers: Record<string, string>, body: unknown): void {
  const target = response as AnyResponse;
  for (const [name, value] of Object.entries(headers)) setHeader(target, name, value);
  if (isFastifyReply(target)) {
    target.code(status);
    if (body === undefined) target.send();
    else target.type('application/json').send(writeJson(body));
    return;
  }
  target.status(status);
  if (body === undefined) target.end();
  else target.json(body);
}

/** The request's path without its query string (Express has `path`; Fastify only `url`). */
export function pathOf(request: { path?: string; url?: string }): string {
  if (typeof request.path === 'string') return request.path;
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Node's own response under the stack's object, for an answer the route writes itself (an endless
 * event stream): Fastify is told to stand back (hijack) so it neither sends nor closes it; Express's
 * response already is Node's.
 */
export function takeRawResponse(response: unknown): ServerResponse {
  if (isFastifyReply(response)) {
    (response as unknown as { hijack(): void }).hijack();
    return response.raw as unknown as ServerResponse;
  }
  return response as ServerResponse;
}
