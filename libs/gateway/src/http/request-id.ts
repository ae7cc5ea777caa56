import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** Fastify's request with the id every answer and log line of it carries (set in the onRequest hook). */
export interface RequestWithId extends FastifyRequest {
  requestId?: string;
}

export function requestIdOf(request: { requestId?: string }): string {
  return request.requestId ?? randomUUID();
}
