import type { LoggerService } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger as PinoInstance } from 'pino';

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

/**
 * pino's `isoTime`, made once per millisecond: under load many lines share one, and
 * `Date.prototype.toISOString` was a fifth of a request line's cost.
 */
function isoTimeOncePerMillisecond(): () => string {
  let millisecond = -1;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== millisecond) {
      millisecond = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

/** How long a log line may wait in the batch before it is written, when fewer than a batch's bytes come. */
const LOG_FLUSH_INTERVAL_MS = 100;

/**
 * The process's log stream on stdout, written in batches of at least 32 KiB (about 130 request
 * lines) or every LOG_FLUSH_INTERVAL_MS, whichever comes first: one write per line (a system call
 * and a thread-pool round trip) was a tenth of a bare request's CPU under load, and 4 KiB batches
 * still half of that. Lines are queued as buffers: queued as text, sonic-boom measures the queued
 * text's bytes at every line, copying the whole queue each time. pino writes what is still queued
 * when the process exits; a SIGKILL loses at most the last interval's lines (or the last batch), of
 * a log that is not the ledger's record.
 */
export function batchedLogStream(dest: number | string = 1): DestinationStream {
  const stream = pino.destination({ dest, minLength: 32 * 1024, maxWrite: 64 * 1024, contentMode: 'buffer' });
  let waiting = false;
  const timer = setInterval(() => {
    // Only when a line waits: a flush of nothing would still make an empty write.
    if (waiting) stream.flush();
    waiting = false;
  }, LOG_FLUSH_INTERVAL_MS).unref();
  // pino ends the stream as the process exits, after which a flush throws.
  stream.once('close', () => clearInterval(timer));
  return {
    write(line: string) {
      waiting = true;
      // sonic-boom's types name only text, which its buffer mode does not take.
      return stream.write(Buffer.from(line) as unknown as string);
    },
  };
}

/** JSON lines: one pino logger per ledger, to stdout unless a destination is given (tests capture it). */
export function createLedgerLogger(level: string, destination?: DestinationStream): PinoInstance {
  const options = {
    level,
    base: { service: 'card-ledger' },
    timestamp: isoTimeOncePerMillisecond(),
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

interface LoggedRequest extends IncomingMessage {
  id?: string;
  requestId?: string;
}

type Level = 'info' | 'warn' | 'error';

/** The logger's own state that a hand-written line needs: pino exports these symbols for integrations. */
interface PinoInternals {
  [pino.symbols.streamSym]: DestinationStream;
  [pino.symbols.chindingsSym]: string;
  [pino.symbols.timeSym]: () => string;
}

/**
 * One line per request when its answer is sent, with `request_id`, the id the answer's
 * `x-request-id` header and error body (`debugging_request_id`) carry. Only method, path (no query
 * string) and status are logged: never headers (the api-key) nor bodies (PAN, CVV, PIN).
 *
 * The lines are pino-http's (its `quietReqLogger` form, same levels, messages and field order),
 * without its per-request child loggers: `request_id` is the line's first field of its own, where a
 * child's binding was, and nothing is built for a line the level does not let through. `watch` is
 * called by the stack's own first stage, a Fastify onRequest hook.
 *
 * A request answered without a failure, the line of nearly every request, is written as text here, in
 * the field order pino gives it, straight to the logger's stream: its values are a method, a path, a
 * status, a duration and an id, none of which can hold a secret, so it needs neither the redaction
 * (which walks every path of REDACTED_PATHS) nor pino's generic serialiser, which between them cost a
 * bare request a quarter of its CPU. A failed request's line carries an error and goes through pino.
 */
export class RequestLog {
  private readonly internals: PinoInternals;
  private readonly infoLevel: number;
  private readonly warnLevel: number;

  constructor(private readonly log: PinoInstance) {
    this.internals = log as unknown as PinoInternals;
    this.infoLevel = log.levels.values.info;
    this.warnLevel = log.levels.values.warn;
  }

  /**
   * 'finish' for an answer sent, 'close' alone for one the client did not wait for (or that failed).
   * Listening on 'close' alone would do, but Node emits it a tick after 'finish', and measured on a
   * bare request it cost more than the line itself.
   */
  watch(request: LoggedRequest, response: ServerResponse, requestId: string): void {
    const started = Date.now();
    const finished = () => {
      response.removeListener('finish', finished);
      response.removeListener('close', finished);
      this.answered(requestId, request, response, started);
    };
    response.on('finish', finished);
    response.on('close', finished);
  }

  private answered(requestId: string, request: LoggedRequest, response: ServerResponse & { err?: Error }, started: number): void {
    const status = response.statusCode;
    const level: Level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!this.log.isLevelEnabled(level)) return;
    const responseTime = Date.now() - started;
    const path = (request.url ?? '').split('?')[0];
    const failure = response.err || (status >= 500 ? new Error(`failed with status code ${status}`) : undefined);
    // `request_id` then `req` first in the line's own fields: where pino-http's child loggers put them, right after the bindings.
    if (failure) return void this.log[level]({ request_id: requestId, req: { method: request.method, path }, res: { status }, err: failure, responseTime }, 'request errored');
    const message = !request.readableAborted && response.writableFinished ? 'request completed' : 'request aborted';
    const { [pino.symbols.timeSym]: time, [pino.symbols.chindingsSym]: bindings, [pino.symbols.streamSym]: stream } = this.internals;
    stream.write(
      `{"level":${level === 'info' ? this.infoLevel : this.warnLevel}${time()}${bindings},"request_id":${JSON.stringify(requestId)},"req":{"method":${JSON.stringify(request.method)},"path":${JSON.stringify(path)}},"res":{"status":${status}},"responseTime":${responseTime},"msg":"${message}"}\n`,
    );
  }
}


/**
 * A log line made while handling a request names the request itself (docs/decisions.md, "Logs"):
 * `logger.warn({ request_id, msg })` on a Nest `Logger`. JSON lines (`PinoNestLogger`) carry it as
 * `request_id` before `context`, where a request-bound child logger put it; other Nest loggers show
 * the object.
 */
export interface LineInRequest {
  readonly request_id: string;
  readonly msg: string;
}

function isLineInRequest(message: unknown): message is LineInRequest {
  return typeof message === 'object' && message !== null && typeof (message as LineInRequest).request_id === 'string' && typeof (message as LineInRequest).msg === 'string';
}

/**
 * Nest's logger as JSON lines on the ledger's pino logger: nestjs-pino's `Logger` (same fields, levels
 * and order: `context`, then the message or the object given), without its per-request
 * AsyncLocalStorage. A line made inside a request says which one itself (`LineInRequest`): an active
 * AsyncLocalStorage makes Node 20 run a hook on every promise of the process, the followers' too.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: PinoInstance) {}

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.call('trace', message, optionalParams);
  }
  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.call('debug', message, optionalParams);
  }
  log(message: unknown, ...optionalParams: unknown[]): void {
    this.call('info', message, optionalParams);
  }
  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.call('warn', message, optionalParams);
  }
  error(message: unknown, ...optionalParams: unknown[]): void {
    this.call('error', message, optionalParams);
  }
  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.call('fatal', message, optionalParams);
  }

  /** nestjs-pino's `Logger.call`: the context is the last parameter; an Error is `err`; Nest's `(message, stack)` error form too. */
  private call(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal', message: unknown, optionalParams: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    if (isLineInRequest(message)) fields.request_id = message.request_id;
    let params: unknown[] = [];
    if (optionalParams.length !== 0) {
      fields.context = optionalParams[optionalParams.length - 1];
      params = optionalParams.slice(0, -1);
    }
    const log = this.logger[level].bind(this.logger) as (...args: unknown[]) => void;
    if (isLineInRequest(message)) {
      log(fields, message.msg, ...params);
    } else if (typeof message === 'object') {
      if (message instanceof Error) fields.err = message;
      else Object.assign(fields, message);
      log(fields, ...params);
    } else if (level === 'error' && typeof message === 'string' && params.length === 1 && typeof params[0] === 'string' && /\n\s*at /.test(params[0])) {
      const err = new Error(message);
      err.stack = params[0];
      log({ ...fields, err });
    } else {
      log(fields, message, ...params);
    }
  }
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
