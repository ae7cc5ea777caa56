import 'reflect-metadata';
import { runLedgerProcess } from '@ledger/host';

// The REST API as its own process: queries read the read models, commands go over NATS (NATS_URL).
runLedgerProcess({ name: 'gateway', roles: ['gateway'] });
