import type { INestApplication } from '@nestjs/common';
import { fastifyRoutes } from './fastify-http';

/**
 * Every method and path pattern (`/v1/cards/:card_token`) the app's HTTP stack dispatches, read from
 * Fastify's route table, below Nest, so a route registered any way at all (controller, adapter,
 * Swagger) is seen. HEAD is left out: it is answered wherever GET is.
 */
export function dispatchedRoutes(app: INestApplication): { method: string; path: string }[] {
  return fastifyRoutes(app).map(({ method, pattern }) => ({ method, path: pattern }));
}
