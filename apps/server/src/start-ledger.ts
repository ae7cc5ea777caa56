import { INestApplication, Logger, LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { configureHttp, setupOpenApi } from '@ledger/gateway';
import { LedgerConfig } from '@ledger/runtime';
import { LEDGER_ROLES, LedgerAppModule, LedgerRole } from './ledger-app.module';
import { createLedgerLogger, createRequestLogger, withPinoLogging } from './logging';
import { ensureSandboxProgram } from './sandbox-program';
import { prepareStorage } from './storage';

export interface RunningLedger {
  readonly app: INestApplication;
  readonly baseUrl: string;
  readonly sandboxApiKey: string;
  readonly databaseUrl: string;
  stop(): Promise<void>;
}

/** Starts the service as `npm start` runs it; tests start it the same way on their own database. */
export async function startLedger(
  config: LedgerConfig,
  options: {
    roles?: readonly LedgerRole[];
    /** Unset: JSON log lines (nestjs-pino) at LOG_LEVEL on stdout. Given (tests pass false): that Nest logger, no pino. */
    logger?: LoggerService | LogLevel[] | false;
    /** JSON log lines go here instead of stdout (tests capture them); takes precedence over `logger`. */
    logDestination?: DestinationStream;
  } = {},
): Promise<RunningLedger> {
  const storage = await prepareStorage(config);
  const appModule = LedgerAppModule.forRoot(storage.runtime, options.roles ?? LEDGER_ROLES);
  const pinoLogger = options.logDestination || options.logger === undefined ? createLedgerLogger(config.logLevel, options.logDestination) : null;
  const app = await NestFactory.create(pinoLogger ? withPinoLogging(appModule, pinoLogger) : appModule, {
    bodyParser: false,
    logger: pinoLogger ? undefined : (options.logger ?? new Logger()),
    bufferLogs: pinoLogger !== null,
    abortOnError: false,
  });
  if (pinoLogger) app.useLogger(app.get(PinoNestLogger));
  configureHttp(app, { requestLogger: pinoLogger ? createRequestLogger(pinoLogger) : undefined });
  setupOpenApi(app);
  try {
    await app.init();
    const sandboxApiKey = await ensureSandboxProgram(app);
    await app.listen(config.port, config.host);
    const address = app.getHttpServer().address() as { port: number };
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    return {
      app,
      baseUrl: `http://${host}:${address.port}`,
      sandboxApiKey,
      databaseUrl: storage.runtime.databaseUrl,
      async stop() {
        await app.close();
        await storage.release();
      },
    };
  } catch (error) {
    await app.close().catch(() => undefined);
    await storage.release();
    throw error;
  }
}
