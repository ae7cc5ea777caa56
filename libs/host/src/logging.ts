import { DynamicModule, LoggerService, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { pino, type DestinationStream, type Logger as PinoInstance } from 'pino';
import type { RequestHandler } from 'express';

/**
 * Paths pino censors wherever they appear near the top of a log line. Request bodies and headers are
 * never logged in the first place (see the serializers below); this catches a secret that an error
 * object or a log call would otherwise carry.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  ...['pan', 'cvv', 'pin', 'pan_encrypted', 'panEncrypted', 'authorization', 'apiKey', 'api_key'].flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
];

/** JSON lines: one pino logger per ledger, to stdout unless a destination is given (tests capture it). */
export function createLedgerLogger(level: string, destination?: DestinationStream): PinoInstance {
  const options = {
    level,
    base: { service: 'card-ledger' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

interface LoggedRequest extends IncomingMessage {
  requestId?: string;
}

type Level = 'info' | 'warn' | 'error';

/** How a request's line shows it and its answer: method, path (no query string) and status only. */
const REQUEST_SERIALIZERS = {
  req: pino.stdSerializers.wrapRequestSerializer((request) => ({ method: request.method, path: (request.url ?? '').split('?')[0] }) as never),
  res: pino.stdSerializers.wrapResponseSerializer((response) => ({ status: response.statusCode }) as never),
  err: pino.stdSerializers.err,
};

/**
 * One line per request when its answer is sent, with `request_id`, the id the answer's
 * `x-request-id` header and error body (`debugging_request_id`) carry, and that id bound to every log
 * line made while handling it (`request.log`, which nestjs-pino picks up). Only method, path (no query
 * string) and status are logged: never headers (the api-key) nor bodies (PAN, CVV, PIN).
 *
 * The lines are pino-http's (its `quietReqLogger` form, same serializers, levels, messages and field
 * order); pino-http itself also built a second child logger holding the request for every request,
 * logged or not, where this puts the request in the line's fields, and only in a line the level lets
 * through.
 */
export function createRequestLogger(logger: PinoInstance): RequestHandler {
  const base = logger.child({}, { serializers: REQUEST_SERIALIZERS });
  return ((request: LoggedRequest, response: ServerResponse, next: () => void) => {
    request.id ||= request.requestId ?? randomUUID();
    const log = base.child({ request_id: request.id });
    request.log ??= log;
    const started = Date.now();
    const finished = (error?: Error) => {
      response.removeListener('close', finished);
      response.removeListener('finish', finished);
      response.removeListener('error', finished);
      logAnswer(log, request, response, started, error);
    };
    response.on('close', finished);
    response.on('finish', finished);
    response.on('error', finished);
    next();
  }) as unknown as RequestHandler;
}

function logAnswer(log: PinoInstance, request: LoggedRequest, response: ServerResponse & { err?: Error }, started: number, error?: Error): void {
  const level: Level = error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info';
  if (!log.isLevelEnabled(level)) return;
  // `req` first in the line's own fields: where pino-http's child logger put it, right after the bindings.
  const responseTime = Date.now() - started;
  const failure = error || response.err || (response.statusCode >= 500 ? new Error(`failed with status code ${response.statusCode}`) : undefined);
  if (failure) return log[level]({ req: request, res: response, err: failure, responseTime }, 'request errored');
  log[level]({ req: request, res: response, responseTime }, !request.readableAborted && response.writableEnded ? 'request completed' : 'request aborted');
}

/**
 * Nest's own start-up bookkeeping: a line per module (InstanceLoader), per controller (RoutesResolver)
 * and per route (RouterExplorer), about ninety at info, which buried the start banner of `npm start`.
 */
const FRAMEWORK_START_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * Nest's logger with its start-up bookkeeping lowered to debug: `npm start` shows the service's few
 * start lines and the banner, and `LOG_LEVEL=debug` still lists every mapped route. Nest passes the
 * context as the last argument.
 */
export class FrameworkStartLinesAtDebug implements LoggerService {
  constructor(private readonly logger: LoggerService) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    if (FRAMEWORK_START_CONTEXTS.has(optionalParams.at(-1) as string)) this.debug(message, ...optionalParams);
    else this.logger.log(message, ...optionalParams);
  }
  error(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.error(message, ...optionalParams);
  }
  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.warn(message, ...optionalParams);
  }
  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.debug?.(message, ...optionalParams);
  }
  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.verbose?.(message, ...optionalParams);
  }
  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.logger.fatal?.(message, ...optionalParams);
  }
}

@Module({})
class LoggedLedgerModule {}

/**
 * The app module with nestjs-pino as Nest's logger, bound to the request of the pino-http middleware
 * that configureHttp installs (`useExisting`), so a log line made inside a request carries its id.
 */
export function withPinoLogging(appModule: DynamicModule, logger: PinoInstance): DynamicModule {
  return { module: LoggedLedgerModule, imports: [appModule, LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true })] };
}
