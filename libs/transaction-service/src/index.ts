export * from './transaction-service.module';
export * from './reconciliation/transaction-reconciler';
export { NoCardWithThisNumber } from './card-locator';
