import { INestApplication, Logger, LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { Server } from 'node:http';
import type { DestinationStream } from 'pino';
import type { HostResolver } from '@ledger/egress';
import type { FaultPoints } from '@ledger/event-store';
import { configureFastifyHttp, LedgerFastifyAdapter, LiveEventStreams, Readiness, setupOpenApi } from '@ledger/gateway';
import { describeEgress, LedgerConfig, ReadModelBehind } from '@ledger/runtime';
import { CommandTransportModule } from './distributed/command-transport.module';
import { DrainingNatsServer } from './distributed/draining-nats-server';
import { HttpIntake } from './distributed/http-intake';
import { ProcessConfig } from './distributed/process-config';
import { commandRoleModules, LEDGER_ROLES, LedgerAppModule, LedgerRole } from './ledger-app.module';
import { createLedgerLogger, FrameworkStartLinesAtDebug, PinoNestLogger, RequestLog } from './logging';
import { ensureSandboxProgram } from './sandbox-program';
import { prepareStorage } from './storage';

export interface RunningLedger {
  readonly app: INestApplication;
  /** The API's base URL with the gateway role; else where the health probes answer. */
  readonly baseUrl: string;
  /** Empty in a process without the gateway role (it does not set the sandbox program up). */
  readonly sandboxApiKey: string;
  readonly databaseUrl: string;
  readonly roles: readonly LedgerRole[];
  /**
   * Graceful: readiness turns 503, new HTTP requests and NATS messages stop being taken, those in
   * flight are answered, then the modules stop (subscriptions commit their checkpoints) and the
   * connections close.
   */
  stop(): Promise<void>;
}

/** Defaults of the embedded process: every role, no transport, no drain delay. */
const EMBEDDED: Omit<ProcessConfig, 'roles'> = {
  natsUrl: null,
  subjectPrefix: 'ledger',
  commandTimeoutMs: 10_000,
  healthPort: 0,
  drainDelayMs: 0,
  shutdownTimeoutMs: 30_000,
  startupTimeoutMs: 120_000,
};

/** Starts the service as `npm start` runs it; tests start it the same way on their own database. */
export async function startLedger(
  config: LedgerConfig,
  options: {
    roles?: readonly LedgerRole[];
    /** The distributed settings (roles, NATS, probes port, drain); unset: the embedded default. */
    process?: Partial<ProcessConfig>;
    /** Unset: JSON log lines (pino) at LOG_LEVEL on stdout. Given (tests pass false): that Nest logger, no pino. */
    logger?: LoggerService | LogLevel[] | false;
    /** JSON log lines go here instead of a stdout stream of their own (main.ts prints its banner on it; tests capture lines); takes precedence over `logger`. */
    logDestination?: DestinationStream;
    /** How outbound calls resolve names; unset: the system resolver (tests script a rebinding one). */
    hostResolver?: HostResolver;
    /** Test-only failures on the authorization path (fault-injection tests); never set by main.ts. */
    faultPoints?: FaultPoints;
  } = {},
): Promise<RunningLedger> {
  const settings: ProcessConfig = { ...EMBEDDED, roles: LEDGER_ROLES, ...options.process };
  const roles = options.roles ?? settings.roles;
  const gateway = roles.includes('gateway');
  // A process of only projector and publisher neither sends nor answers commands: it needs no NATS.
  const commanding = roles.some((role) => role !== 'projector' && role !== 'publisher');
  const transport =
    settings.natsUrl && commanding
      ? { natsUrl: settings.natsUrl, subjectPrefix: settings.subjectPrefix, commandTimeoutMs: settings.commandTimeoutMs }
      : undefined;
  warnAboutMissingHandlers(roles, transport !== undefined);

  const storage = await prepareStorage(config);
  const appModule = LedgerAppModule.forRoot({ ...storage.runtime, hostResolver: options.hostResolver, faultPoints: options.faultPoints }, roles, transport);
  const pinoLogger = options.logDestination || options.logger === undefined ? createLedgerLogger(config.logLevel, options.logDestination) : null;
  const appOptions = {
    bodyParser: false,
    logger: pinoLogger ? undefined : (options.logger ?? new Logger()),
    bufferLogs: pinoLogger !== null,
    abortOnError: false,
  };
  // docs/decisions.md, "HTTP stack": the service serves with NestJS on Fastify.
  const app = await NestFactory.create(appModule, new LedgerFastifyAdapter(config.httpTimeouts), appOptions);
  if (pinoLogger) app.useLogger(new FrameworkStartLinesAtDebug(new PinoNestLogger(pinoLogger)));
  // Said at every start, loudly when the sandbox default lets outbound calls reach this machine.
  const egress = new Logger('Egress');
  const reach = `outbound calls (webhooks, authorization stream) may reach ${describeEgress(config)}`;
  if (config.egressAllowlistIsSandboxDefault) egress.warn(reach);
  else egress.log(reach);
  const intake = new HttpIntake();
  if (gateway) {
    // The intake count and the request log start in a Fastify hook: a middleware (@fastify/middie)
    // costs every request Nest's and middie's dispatch, for work that needs only the raw request.
    const requestLog = pinoLogger ? new RequestLog(pinoLogger) : null;
    (app.getHttpAdapter().getInstance() as FastifyInstance).addHook('onRequest', (request, reply, done) => {
      intake.took(reply.raw);
      requestLog?.watch(request.raw, reply.raw, request.id);
      done();
    });
    configureFastifyHttp(app);
    setupOpenApi(app);
  }
  let natsServer: DrainingNatsServer | null = null;
  if (transport && CommandTransportModule.listens({ localRoles: roles })) {
    natsServer = new DrainingNatsServer({
      servers: transport.natsUrl.split(','),
      name: `card-ledger:${roles.join('+')}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      waitOnFirstConnect: true,
    } as ConstructorParameters<typeof DrainingNatsServer>[0]);
    app.connectMicroservice({ strategy: natsServer }, { inheritAppConfig: false });
  }
  try {
    await app.init();
    const readiness = app.get(Readiness);
    if (natsServer) {
      await app.startAllMicroservices();
      const server = natsServer;
      readiness.addCheck('nats-server', () => server.connected);
    }
    // The gateway makes sure the sandbox api-key works; in the distributed set its commands go to the
    // card-service, which it waits for (STARTUP_TIMEOUT_MS).
    const sandboxApiKey = gateway ? await ensureSandboxProgram(app, transport ? { retryUntil: Date.now() + settings.startupTimeoutMs } : {}).catch((error: unknown) => {
      throw withoutProjectorHint(error, roles);
    }) : '';
    await app.listen(gateway ? config.port : settings.healthPort, config.host);
    const address = app.getHttpServer().address() as { port: number };
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    let stopping: Promise<void> | null = null;
    return {
      app,
      baseUrl: `http://${host}:${address.port}`,
      sandboxApiKey,
      databaseUrl: storage.runtime.databaseUrl,
      roles,
      stop() {
        stopping ??= (async () => {
          const logger = new Logger('Shutdown');
          readiness.beginDraining();
          intake.beginDraining();
          if (settings.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, settings.drainDelayMs));
          const deadline = Date.now() + settings.shutdownTimeoutMs;
          if (gateway) {
            // Event streams never finish on their own: end them now, their clients resume with Last-Event-ID.
            app.get(LiveEventStreams).closeAll();
            const { unfinished } = await intake.close(app.getHttpServer() as Server, Math.max(0, deadline - Date.now()));
            if (unfinished > 0) logger.warn(`${unfinished} HTTP requests were still running when the shutdown timeout passed`);
          }
          if (natsServer) {
            const { unfinished } = await natsServer.stopIntake(Math.max(0, deadline - Date.now()));
            if (unfinished > 0) logger.warn(`${unfinished} commands were still running when the shutdown timeout passed`);
          }
          // Module hooks: subscriptions (projector, ledger tree, publisher, webhook feed) stop after their
          // current batch and checkpoint; then the NATS and database connections close.
          await app.close();
          await storage.release();
        })();
        return stopping;
      },
    };
  } catch (error) {
    await app.close().catch(() => undefined);
    await storage.release();
    throw error;
  }
}

/**
 * The gateway's start waits for the read models to show the sandbox program, which only a projector
 * writes: in a process without the projector role, say that one must run elsewhere on the database.
 */
function withoutProjectorHint(error: unknown, roles: readonly LedgerRole[]): unknown {
  if (!(error instanceof ReadModelBehind) || roles.includes('projector')) return error;
  return new Error(`${error.message}: this process runs ${roles.join(', ')} and no projector; the read models move only while a process with the projector role runs on the same database (LEDGER_ROLES=projector, or npm run start:projector)`);
}

function warnAboutMissingHandlers(roles: readonly LedgerRole[], forwarding: boolean): void {
  if (forwarding || !(roles.includes('gateway') || roles.includes('transaction-service'))) return;
  const missing = Object.keys(commandRoleModules()).filter((role) => !roles.includes(role as LedgerRole));
  if (missing.length > 0) new Logger('Ledger').warn(`roles ${roles.join(', ')} without NATS_URL: commands of ${missing.join(', ')} have no handler here`);
}
