import { INestApplication, Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendError } from './error-body.filter';
import { rejectHostileInput } from './hostile-input';
import { assignRequestId, RequestWithId } from './request-id';
import { StrictValidationPipe } from './strict-validation.pipe';

export const BODY_LIMIT = '100kb';

/**
 * HTTP settings the app needs wherever it runs (server, tests): request ids, our own JSON body parser
 * so malformed JSON gets the JSON error body, strict validation, and JSON for unknown routes.
 * Create the app with `{ bodyParser: false }` before calling this.
 */
export function configureHttp(app: INestApplication, options: { requestLogger?: RequestHandler } = {}): void {
  const expressApp = app as NestExpressApplication;
  const logger = new Logger('HTTP');
  expressApp.disable('x-powered-by');
  expressApp.use(assignRequestId);
  // Logs every request, the refused ones included, under the id just assigned (pino-http).
  if (options.requestLogger) expressApp.use(options.requestLogger);
  expressApp.use(express.json({ limit: BODY_LIMIT, strict: true, type: () => true }));
  expressApp.use(rejectHostileInput);
  expressApp.use((error: unknown, request: Request, response: Response, next: NextFunction) => {
    if (!error) return next();
    sendError(error, request as RequestWithId, response, logger);
  });
  expressApp.useGlobalPipes(new StrictValidationPipe());
}
