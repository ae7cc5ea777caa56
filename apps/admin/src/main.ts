import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig, trustedDigestKeys } from '@ledger/runtime';
import { ADMIN_USAGE, AdminUsageError, checkCommandLine, runAdminCommand, runListen, runOfflineVerify } from '@ledger/admin';
import { LedgerAppModule, prepareStorage } from '@ledger/host';

/** The operator's CLI: the same modules as the service, without HTTP; output is JSON on stdout. */
async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.length === 0 || args[0] === '--help' || args[0] === 'help') {
    process.stdout.write(`${ADMIN_USAGE}\n`);
    return args.length === 0 ? 2 : 0;
  }
  // A mistyped command line is refused before a database or a connection is opened for it.
  try {
    checkCommandLine(args);
  } catch (error) {
    if (!(error instanceof AdminUsageError)) throw error;
    process.stderr.write(`${error.message}\n${ADMIN_USAGE}\n`);
    return 2;
  }
  // A client of the running service's API: no database of its own.
  if (args[0] === 'listen') return runListen(args, loadConfig());
  // Offline: an export or a proof is checked without any database or service.
  const offline = args[0] === 'verify' ? runOfflineVerify(args, trustedDigestKeys(loadConfig())) : null;
  if (offline) {
    const { output, ok } = await offline;
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return ok ? 0 : 1;
  }
  const storage = await prepareStorage(loadConfig());
  const app = await NestFactory.createApplicationContext(LedgerAppModule.forRoot(storage.runtime, ['card-service', 'projector']), { logger: ['error'] });
  try {
    const { output, ok } = await runAdminCommand(app, args);
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
    return ok ? 0 : 1;
  } catch (error) {
    if (error instanceof AdminUsageError) {
      process.stderr.write(`${error.message}\n${ADMIN_USAGE}\n`);
      return 2;
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await app.close();
    await storage.release();
  }
}

main().then((code) => process.exit(code));
