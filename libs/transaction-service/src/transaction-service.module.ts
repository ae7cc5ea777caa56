import { Inject, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { PipelineEnvironment } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { LEDGER_CONFIG, LedgerConfig, PIPELINE_ENVIRONMENT, READ_MODEL } from '@ledger/runtime';
import { CardLocator } from './card-locator';
import { TransactionReconciler } from './reconciliation/transaction-reconciler';
import { SimulateAuthorizationHandler } from './simulate-authorization/simulate-authorization.handler';
import { SimulateReturnHandler } from './simulate-return/simulate-return.handler';
import { SimulateReturnReversalHandler } from './simulate-return-reversal/simulate-return-reversal.handler';
import { SimulateSettlementHandler } from './simulate-settlement/simulate-settlement.handler';
import { SimulateTransactionEventHandler } from './simulate-transaction-event/simulate-transaction-event.handler';

/** The transaction aggregate: simulated network traffic and the reconciler that completes it after a crash. */
@Module({
  imports: [CqrsModule],
  providers: [
    CardLocator,
    SimulateAuthorizationHandler,
    SimulateTransactionEventHandler,
    SimulateReturnHandler,
    SimulateReturnReversalHandler,
    SimulateSettlementHandler,
    {
      provide: TransactionReconciler,
      inject: [PIPELINE_ENVIRONMENT, READ_MODEL, LEDGER_CONFIG],
      useFactory: (env: PipelineEnvironment, readModel: ReadModelClient, config: LedgerConfig) =>
        new TransactionReconciler(env, readModel, config.reconcilerLagMs),
    },
  ],
  exports: [TransactionReconciler],
})
export class TransactionServiceModule implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(TransactionReconciler) private readonly reconciler: TransactionReconciler) {}

  onApplicationBootstrap(): void {
    this.reconciler.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.reconciler.stop();
  }
}
