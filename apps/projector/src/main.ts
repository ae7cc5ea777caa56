import 'reflect-metadata';
import { runLedgerProcess } from '@ledger/host';

// The read models and, with KAFKA_BROKERS, the integration messages on Kafka; LEDGER_ROLES=projector runs the first alone.
runLedgerProcess({ name: 'projector', roles: ['projector', 'publisher'] });
