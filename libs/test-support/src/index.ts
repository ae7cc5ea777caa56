export * from './postgres-test-database';
export * from './decider-specification';
export * from './eventually';
