/**
 * The routes an HTTP stack dispatches, as method and path pattern (`/v1/cards/:card_token`), and which
 * methods a concrete path takes. Fastify tells every route as it is added (its onRoute hook), so
 * 405 and the route listings of the tests see exactly what it dispatches, however a route came.
 */
export class RouteTable {
  private readonly routes: { method: string; pattern: string; matcher: RegExp }[] = [];

  add(method: string | string[], pattern: string): void {
    for (const one of Array.isArray(method) ? method : [method]) {
      this.routes.push({ method: one.toUpperCase(), pattern, matcher: matcherOf(pattern) });
    }
  }

  /** Every route, HEAD left out (it is wherever GET is). */
  list(): { method: string; pattern: string }[] {
    return this.routes.filter((route) => route.method !== 'HEAD').map(({ method, pattern }) => ({ method, pattern }));
  }

  /** The methods the routes of this path take (HEAD wherever GET is), or null when no route has it. */
  allowedMethods(path: string): string[] | null {
    const methods = new Set<string>();
    for (const route of this.routes) if (route.matcher.test(path)) methods.add(route.method);
    if (methods.size === 0) return null;
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  }
}

/** `:name` matches one segment, `*` the rest; a trailing slash is optional, as the router treats it. */
function matcherOf(pattern: string): RegExp {
  const body = pattern
    .replace(/\/+$/, '')
    .split(/(:\w+|\*)/)
    .map((part) => (part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}/?$`);
}
