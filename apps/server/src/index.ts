export * from './ledger-app.module';
export * from './sandbox-program';
export * from './start-ledger';
export * from './storage';
