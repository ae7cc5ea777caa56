import { DynamicModule, Module, Type } from '@nestjs/common';
import { CardServiceModule } from '@ledger/card-service';
import { GatewayModule } from '@ledger/gateway';
import { IntegrationModule, ProjectorModule } from '@ledger/projector';
import { TransactionServiceModule } from '@ledger/transaction-service';
import { WebhooksModule } from '@ledger/webhooks';
import { InfrastructureModule, ResolvedRuntime } from '@ledger/runtime';

/** The parts one process can run; the embedded default runs them all. */
/** `publisher` puts integration messages on Kafka when KAFKA_BROKERS is set (and does nothing otherwise). */
export const LEDGER_ROLES = ['gateway', 'card-service', 'transaction-service', 'projector', 'publisher', 'webhooks'] as const;
export type LedgerRole = (typeof LEDGER_ROLES)[number];

const ROLE_MODULES: Record<LedgerRole, Type> = {
  gateway: GatewayModule,
  'card-service': CardServiceModule,
  'transaction-service': TransactionServiceModule,
  projector: ProjectorModule,
  publisher: IntegrationModule,
  webhooks: WebhooksModule,
};

/** One composition for every deployment: which modules run is configuration, never a fork. */
@Module({})
export class LedgerAppModule {
  static forRoot(runtime: ResolvedRuntime, roles: readonly LedgerRole[] = LEDGER_ROLES): DynamicModule {
    return {
      module: LedgerAppModule,
      imports: [InfrastructureModule.forRoot(runtime), ...roles.map((role) => ROLE_MODULES[role])],
    };
  }
}
