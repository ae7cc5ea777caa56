import type { NextFunction, Request, Response } from 'express';
import { UnsupportedMediaType } from './errors';

/**
 * A request that carries a body must say it is JSON: `Content-Type: application/json`, with any
 * parameters (a charset other than UTF-8 is refused by the parser). Anything else, a missing
 * Content-Type included, is 415 before the body is read: a JSON text sent as text/plain or a form is
 * not parsed as if it were JSON. `+json` types (merge-patch, problem) name other formats and are
 * refused too. A request without a body (GET, DELETE, a POST with none) needs no Content-Type.
 */
export function requireJsonBody(request: Request, _response: Response, next: NextFunction): void {
  if (!carriesBody(request)) return next();
  const mediaType = request.headers['content-type']?.split(';')[0].trim().toLowerCase();
  if (mediaType === 'application/json') return next();
  next(new UnsupportedMediaType());
}

function carriesBody(request: Request): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}
