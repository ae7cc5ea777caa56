import 'reflect-metadata';
import { FaultPoint, FaultPoints } from '@ledger/event-store';
import { loadConfig } from '@ledger/runtime';
import { startLedger } from '@ledger/host';

/**
 * The service as main.ts starts it, plus one test-only fault: once armed (SIGUSR2, answered "fault
 * armed" on stdout), the process kills itself with SIGKILL the first time it passes FAULT_KILL_AT.
 * Used only by authorization-kills.spec.ts; nothing in src/ reads FAULT_KILL_AT.
 */
const point = process.env.FAULT_KILL_AT as FaultPoint | undefined;
let armed = false;
const faults: FaultPoints = {
  reached(passed) {
    if (armed && passed === point) process.kill(process.pid, 'SIGKILL');
  },
};
process.on('SIGUSR2', () => {
  armed = true;
  process.stdout.write('fault armed\n');
});
startLedger(loadConfig(), { faultPoints: faults }).then(
  (ledger) => process.stdout.write(`\n  base URL:        ${ledger.baseUrl}\n`),
  (error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
