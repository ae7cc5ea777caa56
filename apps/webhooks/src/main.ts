import 'reflect-metadata';
import { runLedgerProcess } from '@ledger/host';

// Event-subscription commands (on NATS) and the webhook outbox and dispatcher as their own process.
runLedgerProcess({ name: 'webhooks', roles: ['webhooks'] });
