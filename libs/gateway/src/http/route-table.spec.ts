import Fastify, { FastifyInstance } from 'fastify';
import { RouteTable } from './route-table';

/** A Fastify with the routes given, routing as the served stack does (a trailing slash is the same path), told to a table. */
function served(routes: [string, string][]): { fastify: FastifyInstance; table: RouteTable } {
  const fastify = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  const table = new RouteTable(fastify);
  fastify.addHook('onRoute', (route) => table.add(route.method, route.url));
  for (const [method, url] of routes) fastify.route({ method, url, handler: async () => ({}) });
  return { fastify, table };
}

describe('RouteTable', () => {
  const { table } = served([
    ['GET', '/v1/cards'],
    ['POST', '/v1/cards'],
    ['GET', '/v1/cards/:card_token'],
    ['PATCH', '/v1/cards/:card_token'],
    ['GET', '/docs/*'],
    ['POST', '/v1/cards/search_by_pan'],
  ]);

  it('gives the methods of a concrete path, HEAD wherever GET is, sorted', () => {
    expect(table.allowedMethods('/v1/cards')).toEqual(['GET', 'HEAD', 'POST']);
    expect(table.allowedMethods('/v1/cards/0a4e3c4e-5f7a-4c1b-9f0e-1d2c3b4a5f6e')).toEqual(['GET', 'HEAD', 'PATCH']);
  });

  it('answers a literal path by its own routes only, not by a wider route whose parameter it would fill', () => {
    expect(table.allowedMethods('/v1/cards/search_by_pan')).toEqual(['POST']);
    expect(table.isLiteralPath('/v1/cards/search_by_pan')).toBe(true);
    expect(table.isLiteralPath('/v1/cards/search_by_pan/')).toBe(true);
    expect(table.isLiteralPath('/v1/cards/some-token')).toBe(false);
    expect(table.allowedMethods('/v1/cards/some-token')).toEqual(['GET', 'HEAD', 'PATCH']);
  });

  it('treats a trailing slash as the same path, as the router does', () => {
    expect(table.allowedMethods('/v1/cards/')).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('matches a parameter within one segment only, and the wildcard across segments', () => {
    expect(table.allowedMethods('/v1/cards/a/b')).toBeNull();
    expect(table.allowedMethods('/docs/a/b.css')).toEqual(['GET', 'HEAD']);
  });

  it('knows no path it was not given, prefixes and look-alikes included', () => {
    expect(table.allowedMethods('/v1/card')).toBeNull();
    expect(table.allowedMethods('/v1/cardsX')).toBeNull();
    expect(table.allowedMethods('/v1')).toBeNull();
  });

  it('reads pattern characters literally', () => {
    const dotted = served([['GET', '/openapi.json']]).table;
    expect(dotted.allowedMethods('/openapi.json')).toEqual(['GET', 'HEAD']);
    expect(dotted.allowedMethods('/openapiXjson')).toBeNull();
  });

  it('lists every route but HEAD', () => {
    expect(table.list()).toEqual([
      { method: 'GET', path: '/v1/cards' },
      { method: 'POST', path: '/v1/cards' },
      { method: 'GET', path: '/v1/cards/:card_token' },
      { method: 'PATCH', path: '/v1/cards/:card_token' },
      { method: 'GET', path: '/docs/*' },
      { method: 'POST', path: '/v1/cards/search_by_pan' },
    ]);
  });
});
