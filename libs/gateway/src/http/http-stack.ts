/** The HTTP stacks NestJS runs on here. */
export type HttpStack = 'express' | 'fastify';

/**
 * The stack the service serves with; the bench's bare route measures this one
 * (docs/decisions.md, "HTTP stack").
 */
export const SERVED_HTTP_STACK: HttpStack = 'fastify';
