import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from '@ledger/runtime';
import { startLedger } from './start-ledger';

async function main(): Promise<void> {
  const logger = new Logger('Ledger');
  const config = loadConfig();
  const ledger = await startLedger(config);
  // Printed plainly so scripts can read them: the base URL and the sandbox api-key.
  process.stdout.write(
    `\nCard ledger is up.\n  base URL:        ${ledger.baseUrl}\n  sandbox api-key: ${ledger.sandboxApiKey}\n  sandbox mode:    ${config.sandbox ? 'on' : 'off'}\n\n` +
      `  curl -s -X POST ${ledger.baseUrl}/v1/cards -H 'Authorization: api-key ${ledger.sandboxApiKey}' -H 'Content-Type: application/json' -d '{"type":"SINGLE_USE"}'\n\n`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: stopping`);
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
