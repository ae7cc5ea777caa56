import { INestApplication, Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendError } from './error-body.filter';
import { writeJson } from './exact-json';
import { rejectHostileInput } from './hostile-input';
import { requireJsonBody } from './json-content-type';
import { answerMethodNotAllowed } from './method-not-allowed';
import { assignRequestId, RequestWithId } from './request-id';
import { StrictValidationPipe } from './strict-validation.pipe';

export const BODY_LIMIT = '100kb';

/**
 * HTTP settings the app needs wherever it runs (server, tests): request ids, 405 for a known path
 * asked with another method, 415 for a body that is not JSON, our own JSON body parser so malformed
 * JSON gets the JSON error body, strict validation, JSON for unknown routes, and exact JSON (bigints
 * as their digits) for every answer.
 * Create the app with `{ bodyParser: false }` before calling this.
 */
export function configureHttp(app: INestApplication, options: { requestLogger?: RequestHandler } = {}): void {
  const expressApp = app as NestExpressApplication;
  const logger = new Logger('HTTP');
  expressApp.disable('x-powered-by');
  answerExactJson(expressApp.getHttpAdapter().getInstance() as express.Express);
  expressApp.use(assignRequestId);
  // Logs every request, the refused ones included, under the id just assigned (pino-http).
  if (options.requestLogger) expressApp.use(options.requestLogger);
  expressApp.use(answerMethodNotAllowed);
  expressApp.use(requireJsonBody);
  expressApp.use(express.json({ limit: BODY_LIMIT, strict: true, type: 'application/json' }));
  expressApp.use(rejectHostileInput);
  expressApp.use((error: unknown, request: Request, response: Response, next: NextFunction) => {
    if (!error) return next();
    sendError(error, request as RequestWithId, response, logger);
  });
  expressApp.useGlobalPipes(new StrictValidationPipe());
}

/**
 * Every `response.json` of this app (Nest's answers, errors, probes) writes through writeJson, so a
 * bigint total reaches the client as its exact digits (docs/decisions.md "Totals past 2^53").
 * `app.response` is this app's own prototype of its responses: other apps in the process keep Express's.
 */
function answerExactJson(app: express.Express): void {
  app.response.json = function json(this: Response, body: unknown): Response {
    const text = writeJson(body);
    if (!this.get('Content-Type')) this.set('Content-Type', 'application/json');
    return this.send(text);
  };
}
