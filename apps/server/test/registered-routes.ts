import type { INestApplication } from '@nestjs/common';

/** Routes SwaggerModule itself adds: the document and the UI with its assets. */
export const OPENAPI_OWN_ROUTES = /^(\/openapi\.json|\/docs(\/.*)?)$/;

/** The dashboard's page and assets: a web page over the API (apps/dashboard), not part of it. */
export const DASHBOARD_ROUTES = /^\/dashboard(\/.*)?$/;

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
}

/**
 * What Express will actually dispatch, as `GET /v1/cards/{card_token}`: the route layers of its router
 * (Express 5 `app.router`, Express 4 `app._router`), `:param` written as OpenAPI's `{param}`. This is
 * below Nest, so a route registered any way at all (controller, adapter, another module) is seen.
 * The OpenAPI document's own routes and the dashboard's are left out.
 */
export function registeredRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance();
  const stack: Layer[] = (express.router ?? express._router).stack;
  const routes = new Set<string>();
  for (const layer of stack) {
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const path of paths) {
      if (OPENAPI_OWN_ROUTES.test(path) || DASHBOARD_ROUTES.test(path)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on && method !== '_all') routes.add(`${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
      }
    }
  }
  return [...routes].sort();
}
