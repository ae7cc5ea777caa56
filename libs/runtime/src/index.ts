export * from './config';
export * from './kept-secret';
export * from './projection-watcher';
export * from './tokens';
export * from './infrastructure.module';
export * from './digest-keys';
export * from './ledger-leaves';
export * from './event-feed-signal';
