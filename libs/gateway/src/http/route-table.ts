/**
 * The routes an HTTP stack dispatches, as method and path pattern (`/v1/cards/:card_token`), and which
 * methods a concrete path takes. Fastify tells every route as it is added (its onRoute hook), so
 * 405 and the route listings of the tests see exactly what it dispatches, however a route came.
 */
export class RouteTable {
  private readonly routes: { method: string; pattern: string; matcher: RegExp; parameters: number }[] = [];
  /**
   * Each path some route names with no parameter at all (`/v1/cards/search_by_pan`), with its
   * allowedMethods once asked: asked on every request to one, and few.
   */
  private readonly literalPaths = new Map<string, string[] | null | undefined>();

  add(method: string | string[], pattern: string): void {
    for (const path of this.literalPaths.keys()) this.literalPaths.set(path, undefined);
    const parameters = (pattern.match(/:\w+|\*/g) ?? []).length;
    if (parameters === 0) this.literalPaths.set(withoutTrailingSlash(pattern), undefined);
    for (const one of [method].flat()) this.routes.push({ method: one.toUpperCase(), pattern, matcher: matcherOf(pattern), parameters });
  }

  /**
   * Whether a route names this very path with no parameter. Such a path is never a parameter's value
   * of a wider route (`search_by_pan` is no card token), so its methods alone decide a 405, even when
   * a wider route of another method would take the request. A map lookup: cheap on every request.
   */
  isLiteralPath(path: string): boolean {
    return this.literalPaths.has(withoutTrailingSlash(path));
  }

  /** Every route, HEAD left out (it is wherever GET is). */
  list(): { method: string; path: string }[] {
    return this.routes.filter((route) => route.method !== 'HEAD').map(({ method, pattern }) => ({ method, path: pattern }));
  }

  /**
   * The methods the most literal routes of this path take (HEAD wherever GET is), or null when no
   * route has it: the routes with the fewest parameters that match it.
   */
  allowedMethods(path: string): string[] | null {
    // Kept only for a path exactly as routes name it (no trailing slashes of the client's), so the clients cannot grow the map.
    if (!this.literalPaths.has(path)) return this.matchMethods(path);
    let methods = this.literalPaths.get(path);
    if (methods === undefined) this.literalPaths.set(path, (methods = this.matchMethods(path)));
    return methods;
  }

  private matchMethods(path: string): string[] | null {
    const matching = this.routes.filter((route) => route.matcher.test(path));
    const fewest = Math.min(...matching.map((route) => route.parameters));
    const methods = new Set<string>();
    for (const route of matching) if (route.parameters === fewest) methods.add(route.method);
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

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
