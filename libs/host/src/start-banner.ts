import { describeEgress, LedgerConfig } from '@ledger/runtime';
import type { RunningLedger } from './start-ledger';

/**
 * The line of the banner a reader pastes into bash before the README's walk-through: it sets BASE
 * and KEY, so no command of the walk-through names a port or a key.
 */
export function walkthroughVariables(baseUrl: string, apiKey: string): string {
  return `BASE=${baseUrl} KEY=${apiKey}`;
}

/** What `npm start` prints once the service takes requests: plain text, so scripts can read it too. */
export function startBanner(ledger: Pick<RunningLedger, 'baseUrl' | 'sandboxApiKey' | 'roles'>, config: LedgerConfig): string {
  if (!ledger.roles.includes('gateway')) {
    return `\nCard ledger ${ledger.roles.join('+')} is up.\n  roles:           ${ledger.roles.join(', ')}\n  health URL:      ${ledger.baseUrl}/health/ready\n\n`;
  }
  return (
    `\nCard ledger is up.\n  base URL:        ${ledger.baseUrl}\n  sandbox api-key: ${ledger.sandboxApiKey}\n  sandbox mode:    ${config.sandbox ? 'on' : 'off'}\n  outbound calls:  ${describeEgress(config)}\n\n` +
    `  curl -s -X POST ${ledger.baseUrl}/v1/cards -H 'Authorization: api-key ${ledger.sandboxApiKey}' -H 'Content-Type: application/json' -d '{"type":"SINGLE_USE"}'\n\n` +
    `  the README's walk-through starts with this line, pasted into bash:\n  ${walkthroughVariables(ledger.baseUrl, ledger.sandboxApiKey)}\n\n` +
    // Last, so it is what a reader's eye lands on; the page asks for the api-key printed above.
    `  dashboard:       ${ledger.baseUrl}/dashboard\n\n`
  );
}
