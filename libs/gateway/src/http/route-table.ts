/**
 * The routes an HTTP stack dispatches, as method and path pattern (`/v1/cards/:card_token`), and which
 * methods a concrete path takes. Fastify tells every route as it is added (its onRoute hook), so
 * 405 and the route listings of the tests see exactly what it dispatches, however a route came.
 */
export class RouteTable {
  private readonly routes: { method: string; pattern: string; matcher: RegExp; parameters: number }[] = [];
  /** Paths some route names with no parameter at all, e.g. `/v1/cards/search_by_pan`. */
  private readonly literalPaths = new Set<string>();
  /** allowedMethods of the literal paths as routes name them: asked on every request to one, and few. */
  private readonly literalAnswers = new Map<string, string[] | null>();

  add(method: string | string[], pattern: string): void {
    this.literalAnswers.clear();
    const parameters = parameterCount(pattern);
    if (parameters === 0) this.literalPaths.add(withoutTrailingSlash(pattern));
    for (const one of Array.isArray(method) ? method : [method]) {
      this.routes.push({ method: one.toUpperCase(), pattern, matcher: matcherOf(pattern), parameters });
    }
  }

  /**
   * Whether a route names this very path with no parameter. Such a path is never a parameter's value
   * of a wider route (`search_by_pan` is no card token), so its methods alone decide a 405, even when
   * a wider route of another method would take the request. A set lookup: cheap on every request.
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
    // Exactly as named (no trailing slashes of the client's), so the clients cannot grow the cache.
    if (!this.literalPaths.has(path)) return this.matchMethods(path);
    let methods = this.literalAnswers.get(path);
    if (methods === undefined) {
      methods = this.matchMethods(path);
      this.literalAnswers.set(path, methods);
    }
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

function parameterCount(pattern: string): number {
  return (pattern.match(/:\w+|\*/g) ?? []).length;
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}
