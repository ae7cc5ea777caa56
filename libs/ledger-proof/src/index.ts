export * from './merkle-tree';
export * from './stored-tree';
export * from './leaf-hash';
export * from './signed-digest';
export * from './event-proof';
export * from './leaf-comparison';
export * from './worked-example';
