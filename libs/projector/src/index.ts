export * from './projector.module';
export * from './read-model-projector';
export * from './integration/integration-publisher';
export * from './integration/idempotent-consumer';
export * from './integration/integration.module';
export * from './replay';
export * from './integration/digest-publisher';
export * from './ledger-tree-follower';
export { CarriedRows } from './projections/carried-rows';
