export * from './postgres-test-database';
export * from './decider-specification';
export * from './eventually';
export * from './describe-needing';
export * from './scripted-resolver';
export * from './local-receiver';
export * from './command-handler-specification';
export * from './unusable';
