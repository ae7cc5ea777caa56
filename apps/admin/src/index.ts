export * from './admin-commands';
