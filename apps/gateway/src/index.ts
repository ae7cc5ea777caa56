export * from './gateway.module';
export * from './http/configure-http';
export * from './audit/balances';
export * from './http/openapi';
