export * from './retry-delays';
