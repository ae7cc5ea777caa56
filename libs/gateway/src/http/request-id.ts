import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export interface RequestWithId extends Request {
  requestId?: string;
}

/** Every answer carries the id its error body would show, so a log line can be found from either. */
export function assignRequestId(request: RequestWithId, response: Response, next: NextFunction): void {
  request.requestId = randomUUID();
  response.setHeader('x-request-id', request.requestId);
  next();
}

export function requestIdOf(request: RequestWithId): string {
  return request.requestId ?? randomUUID();
}
