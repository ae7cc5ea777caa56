import { DynamicModule, LoggerService, Module } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { pino, type DestinationStream, type Logger as PinoInstance } from 'pino';
import { pinoHttp } from 'pino-http';
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

interface RequestWithId extends IncomingMessage {
  requestId?: string;
}

/**
 * pino-http: one line per request when its answer is sent, with `request_id`, the id the answer's
 * `x-request-id` header and error body (`debugging_request_id`) carry, and bound to every log line made
 * while handling it. Only method, path (no query string) and status are logged: never headers (the
 * api-key) nor bodies (PAN, CVV, PIN).
 */
export function createRequestLogger(logger: PinoInstance): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (request: IncomingMessage) => (request as RequestWithId).requestId ?? randomUUID(),
    customAttributeKeys: { reqId: 'request_id' },
    quietReqLogger: true,
    customLogLevel: (_request: IncomingMessage, response: ServerResponse, error?: Error) =>
      error || response.statusCode >= 500 ? 'error' : response.statusCode >= 400 ? 'warn' : 'info',
    serializers: {
      req: (request: { method?: string; url?: string }) => ({ method: request.method, path: (request.url ?? '').split('?')[0] }),
      res: (response: { statusCode?: number }) => ({ status: response.statusCode }),
    },
  }) as unknown as RequestHandler;
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
