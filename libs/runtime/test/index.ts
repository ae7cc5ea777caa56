// What the command handlers' specs share (the services' and the webhooks'), imported as @ledger/runtime/test.
export * from './ledger-handler-specification';
export * from './command-origin';
export * from './program-events';
export * from './card-events';
