import type { FastifyInstance } from 'fastify';

/** The methods a route can take, in the order an `Allow` header lists them. */
const METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT'];

/**
 * The routes an HTTP stack dispatches, as method and path pattern (`/v1/cards/:card_token`), told by
 * Fastify's onRoute hook as each is added however it came, and which methods a concrete path takes,
 * asked of Fastify's own router (`findRoute`), so 405 sees exactly what the router dispatches.
 */
export class RouteTable {
  private readonly routes: { method: string; path: string }[] = [];
  /**
   * Each path some route names with no parameter at all (`/v1/cards/search_by_pan`), with its
   * allowedMethods once asked: asked on every request to one, and few.
   */
  private readonly literalPaths = new Map<string, string[] | null | undefined>();

  constructor(private readonly fastify: Pick<FastifyInstance, 'findRoute'>) {}

  add(method: string | string[], pattern: string): void {
    for (const path of this.literalPaths.keys()) this.literalPaths.set(path, undefined);
    if (!/[:*]/.test(pattern)) this.literalPaths.set(withoutTrailingSlash(pattern), undefined);
    for (const one of [method].flat()) if (one.toUpperCase() !== 'HEAD') this.routes.push({ method: one.toUpperCase(), path: pattern });
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
    return [...this.routes];
  }

  /**
   * The methods of the routes the router would pick for this path with the fewest parameters (a
   * literal route over one whose parameter the path would fill), or null when no route takes it.
   */
  allowedMethods(path: string): string[] | null {
    // Kept only for a path exactly as routes name it (no trailing slashes of the client's), so the clients cannot grow the map.
    if (!this.literalPaths.has(path)) return this.matchMethods(path);
    let methods = this.literalPaths.get(path);
    if (methods === undefined) this.literalPaths.set(path, (methods = this.matchMethods(path)));
    return methods;
  }

  private matchMethods(path: string): string[] | null {
    let fewest = Infinity;
    let methods: string[] = [];
    for (const method of METHODS) {
      const route = this.fastify.findRoute({ method, url: path });
      const parameters = route ? Object.keys(route.params).length : Infinity;
      if (parameters < fewest) [fewest, methods] = [parameters, [method]];
      else if (parameters === fewest && route) methods.push(method);
    }
    return methods.length > 0 ? methods : null;
  }
}

/** Asked on every request: the regular expression runs only for the rare path that ends in a slash. */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') : path;
}
