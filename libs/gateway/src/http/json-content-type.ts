import { UnsupportedMediaType } from './errors';

/**
 * Why a request's body is refused before it is read (415), or null. A request that carries a body
 * must say it is JSON: `Content-Type: application/json`, with any parameters. Anything else, a
 * missing Content-Type included, is refused: a JSON text sent as text/plain or a form is not parsed
 * as if it were JSON, and `+json` types (merge-patch, problem) name other formats. A charset other
 * than UTF-8 is refused on the header too: read as UTF-8, a UTF-16 body's length no longer matches
 * and the answer would be about that. A request without a body (GET, DELETE, a POST with none)
 * needs no Content-Type.
 */
export function contentTypeRefusal(headers: Record<string, string | string[] | undefined>): UnsupportedMediaType | null {
  if (headers['transfer-encoding'] === undefined && !(Number(headers['content-length'] ?? 0) > 0)) return null;
  const contentType = typeof headers['content-type'] === 'string' ? headers['content-type'] : '';
  if (contentType.split(';')[0].trim().toLowerCase() !== 'application/json') return new UnsupportedMediaType();
  return isUtf8(contentType) ? null : new UnsupportedMediaType('Request body must be UTF-8 JSON');
}

/** Whether a Content-Type's charset is UTF-8; none means UTF-8 for JSON (RFC 8259). */
export function isUtf8(contentType: string): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}
