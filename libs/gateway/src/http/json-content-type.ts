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

/**
 * A body is there and its Content-Type names a charset other than UTF-8: refused before the body is
 * read, since reading a UTF-16 body as UTF-8 text changes its length and the answer would be about
 * the length, not the charset.
 */
export function sendsNonUtf8Body(headers: Record<string, string | string[] | undefined>): boolean {
  if (!carriesBody(headers)) return false;
  const contentType = headers['content-type'];
  return typeof contentType === 'string' && !isUtf8(charsetOf(contentType));
}

/** The charset parameter of a Content-Type, lower case, or undefined when it names none. */
export function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
}

/** No charset means UTF-8 for JSON (RFC 8259). */
export function isUtf8(charset: string | undefined): boolean {
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

function carriesBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}
