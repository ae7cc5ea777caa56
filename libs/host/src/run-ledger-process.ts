import { Logger } from '@nestjs/common';
import { loadConfig } from '@ledger/runtime';
import { LedgerApp, rolesOfApp } from './app-roles';
import { loadProcessConfig } from './distributed/process-config';
import { batchedLogStream } from './logging';
import { startBanner } from './start-banner';
import { startLedger } from './start-ledger';

/**
 * What every app's main.ts does: starts its roles (configured from the environment), prints the
 * banner scripts read, and stops gracefully on SIGINT or SIGTERM. Exits 1 when the start fails.
 */
export function runLedgerProcess(app: LedgerApp): void {
  startAndWatch(app).catch((error) => {
    // Written straight to stderr: the log may by then be pino's asynchronous stream, which
    // process.exit would cut before it wrote the reason.
    process.stderr.write(`${app.name} could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

async function startAndWatch(app: LedgerApp): Promise<void> {
  const logger = new Logger('Ledger');
  const config = loadConfig();
  const processConfig = { ...loadProcessConfig(), roles: rolesOfApp(app, process.env.LEDGER_ROLES) };
  // One stream for the log lines and the banner: pino writes asynchronously, so a banner written
  // straight to stdout overtook the start lines still queued and scrolled away under them.
  const output = batchedLogStream();
  const ledger = await startLedger(config, { process: processConfig, logDestination: output });
  output.write(startBanner(ledger, config));
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: draining, then stopping`);
    // Should anything hang past the shutdown timeout, exit anyway: an orchestrator would kill us next.
    setTimeout(() => {
      logger.error(`still stopping ${processConfig.shutdownTimeoutMs + 10_000} ms after ${signal}; exiting`);
      process.exit(1);
    }, processConfig.shutdownTimeoutMs + 10_000).unref();
    await ledger.stop();
    process.exit(0);
  };
  // `on`, not `once`: a terminal's Ctrl-C reaches npm too, which passes a signal on to us again while
  // we drain; a second signal must not fall through to the default action, which ends the process
  // at once (no drain, and the embedded server left running).
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}
