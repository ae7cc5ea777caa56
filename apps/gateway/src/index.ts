export * from './gateway.module';
export * from './http/configure-http';
export * from './audit/balances';
export * from './http/openapi';
export * from './health/health-probes.module';
export * from './health/readiness';
export * from './audit/ledger-commitment';
export * from './events/live-event-streams';
