import 'reflect-metadata';
import { runLedgerProcess } from '@ledger/host';

// The transaction aggregate and its reconciler as their own process, answering their commands on NATS.
runLedgerProcess({ name: 'transaction-service', roles: ['transaction-service'] });
