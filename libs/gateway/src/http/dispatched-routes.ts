import type { INestApplication } from '@nestjs/common';
import { fastifyRoutes } from './fastify-http';

interface ExpressLayer {
  route?: { path: string | string[]; methods: Record<string, boolean | undefined> };
}

/**
 * Every method and path pattern (`/v1/cards/:card_token`) the app's HTTP stack dispatches, read from
 * the stack itself, below Nest, so a route registered any way at all (controller, adapter, Swagger)
 * is seen. HEAD is left out: it is answered wherever GET is.
 */
export function dispatchedRoutes(app: INestApplication): { method: string; path: string }[] {
  if (app.getHttpAdapter().getType() === 'fastify') return fastifyRoutes(app).map(({ method, pattern }) => ({ method, path: pattern }));
  const express = app.getHttpAdapter().getInstance();
  const stack: ExpressLayer[] = (express.router ?? express._router).stack;
  const routes: { method: string; path: string }[] = [];
  for (const layer of stack) {
    if (!layer.route) continue;
    for (const path of [layer.route.path].flat()) {
      for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') routes.push({ method: method.toUpperCase(), path });
    }
  }
  return routes;
}
