import { LedgerRole } from './ledger-app.module';
import { parseRoles } from './distributed/process-config';

/** One runnable app of the ledger: its name (for messages) and the roles its process runs. */
export interface LedgerApp {
  readonly name: string;
  /** What the app runs when LEDGER_ROLES is unset; LEDGER_ROLES may narrow it, never widen it. */
  readonly roles: readonly LedgerRole[];
}

/**
 * The roles this app's process runs: all of the app's, or those LEDGER_ROLES names among them. A role
 * of another app is refused rather than ignored, so a deployment that mixes them up fails at start.
 */
export function rolesOfApp(app: LedgerApp, ledgerRoles: string | undefined): readonly LedgerRole[] {
  if (ledgerRoles === undefined || ledgerRoles.trim() === '') return app.roles;
  const asked = parseRoles(ledgerRoles);
  const foreign = asked.filter((role) => !app.roles.includes(role));
  if (foreign.length > 0) {
    throw new Error(`LEDGER_ROLES: the ${app.name} app runs only ${app.roles.join(', ')}, not ${foreign.join(', ')}`);
  }
  return asked;
}
