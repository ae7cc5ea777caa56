import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { describeEgress, loadConfig } from '@ledger/runtime';
import { loadProcessConfig, startLedger } from '@ledger/host';

async function main(): Promise<void> {
  const logger = new Logger('Ledger');
  const config = loadConfig();
  // LEDGER_ROLES unset: the embedded default, every role in this one process.
  const processConfig = loadProcessConfig();
  const ledger = await startLedger(config, { process: processConfig });
  if (ledger.roles.includes('gateway')) {
    // Printed plainly so scripts can read them: the base URL and the sandbox api-key.
    process.stdout.write(
      `\nCard ledger is up.\n  base URL:        ${ledger.baseUrl}\n  sandbox api-key: ${ledger.sandboxApiKey}\n  sandbox mode:    ${config.sandbox ? 'on' : 'off'}\n  outbound calls:  ${describeEgress(config)}\n\n` +
        `  curl -s -X POST ${ledger.baseUrl}/v1/cards -H 'Authorization: api-key ${ledger.sandboxApiKey}' -H 'Content-Type: application/json' -d '{"type":"SINGLE_USE"}'\n\n` +
        // Last, so it is what a reader's eye lands on; the page asks for the api-key printed above.
        `  dashboard:       ${ledger.baseUrl}/dashboard\n\n`,
    );
  } else {
    process.stdout.write(`\nCard ledger ${ledger.roles.join('+')} is up.\n  roles:           ${ledger.roles.join(', ')}\n  health URL:      ${ledger.baseUrl}/health/ready\n\n`);
  }
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

main().catch((error) => {
  new Logger('Ledger').error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
