import 'reflect-metadata';
import { LEDGER_ROLES, runLedgerProcess } from '@ledger/host';

// The single-process composition: every role in one process, the embedded default of `npm start`.
// LEDGER_ROLES may pick fewer (the Docker image runs the distributed set this way).
runLedgerProcess({ name: 'server', roles: LEDGER_ROLES });
