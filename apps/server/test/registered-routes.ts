import type { INestApplication } from '@nestjs/common';
import { dispatchedRoutes } from '@ledger/gateway';

/** Routes SwaggerModule itself adds: the document and the UI with its assets. */
export const OPENAPI_OWN_ROUTES = /^(\/openapi\.json|\/docs(\/.*)?)$/;

/** The dashboard's page and assets: a web page over the API (apps/dashboard), not part of it. */
export const DASHBOARD_ROUTES = /^\/dashboard(\/.*)?$/;

/**
 * What the HTTP stack will actually dispatch, as `GET /v1/cards/{card_token}` (`:param` written as
 * OpenAPI's `{param}`), read below Nest, so a route registered any way at all is seen. The OpenAPI
 * document's own routes and the dashboard's are left out.
 */
export function registeredRoutes(app: INestApplication): string[] {
  const routes = new Set<string>();
  for (const { method, path } of dispatchedRoutes(app)) {
    if (!OPENAPI_OWN_ROUTES.test(path) && !DASHBOARD_ROUTES.test(path)) routes.add(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
  }
  return [...routes].sort();
}
