import { Logger } from '@nestjs/common';
import { describeEgress, LedgerConfig, loadConfig } from '@ledger/runtime';
import { LedgerApp, rolesOfApp } from './app-roles';
import { loadProcessConfig } from './distributed/process-config';
import { RunningLedger, startLedger } from './start-ledger';

/**
 * What every app's main.ts does: starts its roles (configured from the environment), prints the
 * banner scripts read, and stops gracefully on SIGINT or SIGTERM. Exits 1 when the start fails.
 */
export function runLedgerProcess(app: LedgerApp): void {
  startAndWatch(app).catch((error) => {
    new Logger('Ledger').error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}

async function startAndWatch(app: LedgerApp): Promise<void> {
  const logger = new Logger('Ledger');
  const config = loadConfig();
  const processConfig = { ...loadProcessConfig(), roles: rolesOfApp(app, process.env.LEDGER_ROLES) };
  const ledger = await startLedger(config, { process: processConfig });
  process.stdout.write(startBanner(ledger, config));
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
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

/** Printed plainly so scripts can read them: the base URL and the sandbox api-key, or the health URL. */
function startBanner(ledger: RunningLedger, config: LedgerConfig): string {
  if (!ledger.roles.includes('gateway')) {
    return `\nCard ledger ${ledger.roles.join('+')} is up.\n  roles:           ${ledger.roles.join(', ')}\n  health URL:      ${ledger.baseUrl}/health/ready\n\n`;
  }
  return (
    `\nCard ledger is up.\n  base URL:        ${ledger.baseUrl}\n  sandbox api-key: ${ledger.sandboxApiKey}\n  sandbox mode:    ${config.sandbox ? 'on' : 'off'}\n  outbound calls:  ${describeEgress(config)}\n\n` +
    `  curl -s -X POST ${ledger.baseUrl}/v1/cards -H 'Authorization: api-key ${ledger.sandboxApiKey}' -H 'Content-Type: application/json' -d '{"type":"SINGLE_USE"}'\n\n` +
    // Last, so it is what a reader's eye lands on; the page asks for the api-key printed above.
    `  dashboard:       ${ledger.baseUrl}/dashboard\n\n`
  );
}
