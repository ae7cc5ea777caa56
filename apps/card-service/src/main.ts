import 'reflect-metadata';
import { runLedgerProcess } from '@ledger/host';

// The card and program aggregates as their own process, answering their commands on NATS.
runLedgerProcess({ name: 'card-service', roles: ['card-service'] });
