import { Global, Logger, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DigestKeys, EVENT_STORE, LEDGER_CONFIG, LedgerTreeTables, loadConfig, READ_MODEL } from '@ledger/runtime';
import { IntegrationModule } from './integration.module';

// With Kafka configured, the module is exercised against the real broker in integration-publisher.spec.ts.
describe('IntegrationModule without KAFKA_BROKERS', () => {
  it('builds no publisher and says once that nothing is published', async () => {
    @Global()
    @Module({
      providers: [
        { provide: LEDGER_CONFIG, useValue: loadConfig({}) },
        { provide: EVENT_STORE, useValue: Object.freeze({}) },
        { provide: READ_MODEL, useValue: Object.freeze({}) },
        { provide: DigestKeys, useValue: Object.freeze({}) },
        { provide: LedgerTreeTables, useValue: Object.freeze({}) },
      ],
      exports: [LEDGER_CONFIG, EVENT_STORE, READ_MODEL, DigestKeys, LedgerTreeTables],
    })
    class TestInfrastructure {}

    const logged = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    try {
      const moduleRef = await Test.createTestingModule({ imports: [TestInfrastructure, IntegrationModule] }).compile();
      const app = moduleRef.createNestApplication(new FastifyAdapter(), { logger: false });
      await app.init();
      expect(app.get(IntegrationModule).publisher).toBeNull();
      expect(app.get(IntegrationModule).digests).toBeNull();
      await app.close();
      const lines = logged.mock.calls.map(([message]) => String(message)).filter((message) => message.includes('Kafka'));
      expect(lines).toEqual(['Kafka not configured: integration messages are not published']);
    } finally {
      logged.mockRestore();
    }
  });
});
