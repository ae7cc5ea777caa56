export * from './admin-commands';
export * from './ledger-audit';
