import { DynamicModule, Module, Type } from '@nestjs/common';
import { CardServiceModule } from '@ledger/card-service';
import { GatewayModule, HealthProbesModule } from '@ledger/gateway';
import { IntegrationModule, ProjectorModule } from '@ledger/projector';
import { TransactionServiceModule } from '@ledger/transaction-service';
import { WebhooksModule } from '@ledger/webhooks';
import { MessageSeal, parseCardDataKey } from '@ledger/card-vault';
import { HANDLING_ROLES, HandlingRole } from '@ledger/contracts';
import { InfrastructureModule, ResolvedRuntime } from '@ledger/runtime';
import { CommandTransportModule, CommandTransportSettings } from './distributed/command-transport.module';

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

/** The modules of the roles whose handlers other processes reach over the transport (MESSAGE_ROUTES names them). */
export function commandRoleModules(): Record<HandlingRole, Type> {
  return Object.fromEntries(HANDLING_ROLES.map((role) => [role, ROLE_MODULES[role]])) as Record<HandlingRole, Type>;
}

/** Commands and replies between processes are sealed under a key every process derives from CARD_DATA_KEY. */
function commandSeal(runtime: ResolvedRuntime): MessageSeal {
  return MessageSeal.derivedFrom(parseCardDataKey(runtime.cardDataKey), 'command-transport');
}

/** One composition for every deployment: which modules run is configuration, never a fork. */
@Module({})
export class LedgerAppModule {
  /**
   * With `transport` (NATS_URL set), commands for roles not in `roles` are forwarded to the processes
   * that run them, and this process answers the commands of the roles it runs.
   */
  static forRoot(runtime: ResolvedRuntime, roles: readonly LedgerRole[] = LEDGER_ROLES, transport?: CommandTransportSettings): DynamicModule {
    return {
      module: LedgerAppModule,
      imports: [
        InfrastructureModule.forRoot(runtime),
        HealthProbesModule,
        ...roles.map((role) => ROLE_MODULES[role]),
        ...(transport ? [CommandTransportModule.forRoot({ ...transport, localRoles: roles, seal: commandSeal(runtime) })] : []),
      ],
    };
  }
}
