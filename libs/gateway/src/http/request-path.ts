/** The request's path without its query string (Fastify's request has only `url`). */
export function pathOf(request: { url?: string }): string {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
