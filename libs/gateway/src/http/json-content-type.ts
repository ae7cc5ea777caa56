/**
 * A request that carries a body must say it is JSON: `Content-Type: application/json`, with any
 * parameters (a charset other than UTF-8 is refused by the parser). Anything else, a missing
 * Content-Type included, is 415 before the body is read: a JSON text sent as text/plain or a form is
 * not parsed as if it were JSON. `+json` types (merge-patch, problem) name other formats and are
 * refused too. A request without a body (GET, DELETE, a POST with none) needs no Content-Type.
 */
export function sendsNonJsonBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (!carriesBody(headers)) return false;
  const contentType = headers['content-type'];
  const mediaType = (typeof contentType === 'string' ? contentType : undefined)?.split(';')[0].trim().toLowerCase();
  return mediaType !== 'application/json';
}

function carriesBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}
