import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { writeJson } from './exact-json';

/**
 * The few things the API's own code does to Fastify's reply below Nest (error bodies, headers set
 * from a guard or an interceptor, an event stream). Everything else goes through Nest.
 */
function replyOf(response: unknown): FastifyReply {
  return response as FastifyReply;
}

export function headersSent(response: unknown): boolean {
  const reply = replyOf(response);
  return reply.sent || reply.raw.headersSent;
}

export function setHeader(response: unknown, name: string, value: string): void {
  replyOf(response).header(name, value);
}

/** Status, headers and a JSON body (exact integers kept), or no body when it is undefined. */
export function answer(response: unknown, status: number, headers: Record<string, string>, body: unknown): void {
  const reply = replyOf(response);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  reply.code(status);
  if (body === undefined) reply.send();
  else reply.type('application/json').send(writeJson(body));
}

/** The request's path without its query string (Fastify's request has only `url`). */
export function pathOf(request: { url?: string }): string {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Node's own response under Fastify's reply, for an answer the route writes itself (an endless
 * event stream): Fastify is told to stand back (hijack) so it neither sends nor closes it.
 */
export function takeRawResponse(response: unknown): ServerResponse {
  const reply = replyOf(response);
  reply.hijack();
  return reply.raw;
}
