export * from './card-vault';
export * from './key-derivation';
export * from './message-seal';
