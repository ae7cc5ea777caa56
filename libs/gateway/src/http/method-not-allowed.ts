import type { NextFunction, Request, Response } from 'express';
import { MethodNotAllowed } from './errors';

interface RouteLayer {
  route?: { path: string; methods: Record<string, boolean | undefined> };
  match(path: string): unknown;
}

/**
 * A path the app has, asked with a method none of its routes take, answers 405 with the methods it
 * does take in `Allow` (HEAD wherever GET is, as Express answers HEAD with the GET route), instead of
 * Nest's 404. Reads Express's own router stack at request time, so every route counts however it
 * was registered. A path no route has falls through to the 404.
 */
export function answerMethodNotAllowed(request: Request, response: Response, next: NextFunction): void {
  const stack = ((request.app as unknown as { router: { stack: RouteLayer[] } }).router?.stack ?? []) as RouteLayer[];
  const allowed = allowedMethods(stack, request.path);
  if (allowed === null || allowed.includes(request.method)) return next();
  response.setHeader('Allow', allowed.join(', '));
  next(new MethodNotAllowed(request.method, allowed));
}

/**
 * The methods the routes of this path take, or null when no route has the path (or one takes every
 * method). Only the most literal routes count: `/v1/cards/search_by_pan` is that path, not a card
 * token that `/v1/cards/:card_token` would take (it could never be one).
 */
function allowedMethods(stack: RouteLayer[], path: string): string[] | null {
  const routes = stack.filter((layer) => layer.route && matches(layer, path)).map((layer) => layer.route!);
  if (routes.some((route) => route.methods._all)) return null;
  const fewestParameters = Math.min(...routes.map(parameterCount));
  const methods = new Set<string>();
  for (const route of routes) {
    if (parameterCount(route) !== fewestParameters) continue;
    for (const [method, on] of Object.entries(route.methods)) {
      if (!on) continue;
      methods.add(method.toUpperCase());
    }
  }
  if (methods.size === 0) return null;
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

function parameterCount(route: { path: string }): number {
  return (String(route.path).match(/[:*]/g) ?? []).length;
}

function matches(layer: RouteLayer, path: string): boolean {
  try {
    return Boolean(layer.match(path));
  } catch {
    return false; // a malformed %-escape: the router answers it itself
  }
}
