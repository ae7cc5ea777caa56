export * from './event-store.port';
export { PostgresEventStore, type PostgresEventStoreOptions, type Queryable } from './postgres/postgres-event-store';
export { EventStoreDbEventStore } from './eventstoredb/eventstoredb-event-store';
export { NotificationListener, type NotificationListenerOptions } from './postgres/notification-listener';
export { SubscriptionStoppedError } from './support/wake-signal';
export * from './command-pipeline';
export * from './restarting-subscription';
export * from './hash-chain';
export * from './stream-fold-cache';
