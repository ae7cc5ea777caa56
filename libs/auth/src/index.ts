export * from './api-keys';
export * from './api-key.guard';
export * from './cached-api-key-directory';
