export * from './api-keys';
export * from './api-key.guard';
