import 'reflect-metadata';
import { runLedgerProcess } from '@ledger/host';

// The transaction-service as its own process: simulated network traffic, answering its commands on NATS.
runLedgerProcess({ name: 'transaction-service', roles: ['transaction-service'] });
