import type { LedgerConfig } from '@ledger/runtime';
import { ADMIN_USAGE } from '../admin-commands';
import { EventListener } from './event-listener';
import { parseListenOptions } from './listen-options';
import { AdminUsageError } from '../admin-command-line';

/** `npm run admin -- listen ...`: runs until SIGINT or SIGTERM, then exits 0. Answers the exit code. */
export async function runListen(args: readonly string[], config: Pick<LedgerConfig, 'port'>): Promise<number> {
  let listener: EventListener;
  try {
    listener = new EventListener(parseListenOptions(args, `http://localhost:${config.port}`), (line) => process.stdout.write(`${line}\n`));
  } catch (error) {
    if (!(error instanceof AdminUsageError)) throw error;
    process.stderr.write(`${error.message}\n${ADMIN_USAGE}\n`);
    return 2;
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await listener.run(stop.signal);
    process.stdout.write('Stopped.\n');
    return 0;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
