export * from './admin-command-line';
export * from './admin-commands';
export * from './ledger-audit';
export * from './listen/run-listen';
