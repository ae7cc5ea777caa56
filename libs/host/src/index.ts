export * from './ledger-app.module';
export * from './sandbox-program';
export * from './start-ledger';
export * from './storage';
export * from './distributed/process-config';
export * from './distributed/command-routes';
export * from './distributed/command-transport.module';
export * from './distributed/wire';
