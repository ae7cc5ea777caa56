export * from './card-vault';
