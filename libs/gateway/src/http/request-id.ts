import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** Fastify's request, whose `id` (made with it, genReqId) every answer and log line of it carries. */
export interface RequestWithId extends FastifyRequest {
  /** An id given by hand, for an answer made outside a request (a refusal below the API). */
  requestId?: string;
}

export function requestIdOf(request: { requestId?: string; id?: string }): string {
  return request.requestId ?? request.id ?? randomUUID();
}
