export * from './transaction-service.module';
export { NoCardWithThisNumber } from './card-locator';
