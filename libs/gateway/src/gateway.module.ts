import { Module } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { API_KEY_DIRECTORY, ApiKeyGuard, CachedApiKeyDirectory } from '@ledger/auth';
import { ReadModelApiKeyDirectory } from './auth/read-model-api-key-directory';
import { ReadsAfterWritesGuard } from './http/reads-after-writes.guard';
import { CardPresenter } from './cards/card-presenter';
import { GetCardHandler, ListCardsHandler, SearchCardByPanHandler } from './cards/card-query.handlers';
import { GetCardSpendLimitsHandler } from './cards/card-spend-limits.handler';
import { CardsController } from './cards/cards.controller';
import { SimulationOutcomes } from './simulations/simulation-outcomes';
import { SimulatedWrites } from './simulations/simulated-writes';
import { WriteAcknowledger } from './http/write-acknowledger';
import { HealthController } from './health/health.controller';
import { AuditController } from './audit/audit.controller';
import { StreamEvents } from './audit/stream-events';
import { TimeTravel } from './audit/time-travel';
import { Balances } from './audit/balances';
import { LedgerCommitment } from './audit/ledger-commitment';
import { GetAccountHandler, GetAccountSpendLimitsHandler, GetFundingSourceHandler, ListAccountsHandler, ListFundingSourcesHandler } from './accounts/account-query.handlers';
import { AccountsController } from './accounts/accounts.controller';
import { AuthorizationStreamController, GetAuthorizationStreamHandler } from './accounts/authorization-stream.controller';
import { ResponderEndpointsController } from './accounts/responder-endpoints.controller';
import { SandboxOnlyGuard } from './http/sandbox-only.guard';
import { SimulationsController } from './simulations/simulations.controller';
import { TestClockController } from './simulations/test-clock.controller';
import { CardShipmentController } from './simulations/card-shipment.controller';
import { CardProgramsController } from './card-programs/card-programs.controller';
import { GetCardProgramHandler, ListCardProgramsHandler } from './card-programs/card-program-query.handlers';
import { GetTransactionHandler, ListTransactionsHandler } from './transactions/transaction-query.handlers';
import { TransactionsController } from './transactions/transactions.controller';
import { ErrorBodyFilter } from './http/error-body.filter';
import { IdempotencyGuard } from './http/idempotency.guard';
import { IdempotencyKeys } from './idempotency/idempotency-keys';
import { DeclaredInputGuard } from './http/declared-input.guard';
import { EventSubscriptionsController } from './event-subscriptions/event-subscriptions.controller';
import { EVENT_SUBSCRIPTION_QUERY_HANDLERS } from './event-subscriptions/event-subscription-query.handlers';
import { EventsController } from './events/events.controller';
import { SendExampleController } from './event-subscriptions/send-example.controller';
import { FeedEvents } from './events/feed-events';
import { LiveEventStreams } from './events/live-event-streams';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { BuiltDashboard } from './dashboard/built-dashboard';
import { DashboardController } from './dashboard/dashboard.controller';
import { AuthRulesController } from './auth-rules/auth-rules.controller';
import { FinancialAccountsController } from './financial-accounts/financial-accounts.controller';
import { CardFinancialAccountsController } from './financial-accounts/card-financial-accounts.controller';
import { ProgramFinancialAccounts } from './financial-accounts/program-financial-accounts';
import { AccountBalances } from './financial-accounts/account-balances';
import { CardFinancialTransactions } from './financial-accounts/card-financial-transactions';
import { AccountStatements } from './financial-accounts/account-statements';
import { AuthRuleResultsController } from './auth-rules/auth-rule-results.controller';
import { AUTH_RULE_RESULT_QUERY_HANDLERS } from './auth-rules/auth-rule-result.handlers';
import { AUTH_RULE_QUERY_HANDLERS } from './auth-rules/auth-rule-query.handlers';
import { AuthRuleBacktestsController } from './auth-rules/auth-rule-backtests.controller';
import { GetAuthRuleBacktestHandler } from './auth-rules/auth-rule-backtest-query.handler';
import { ThreeDSController } from './three-ds/three-ds.controller';
import { ThreeDSSimulationsController } from './three-ds/three-ds-simulations.controller';
import { GetThreeDSAuthenticationHandler } from './three-ds/three-ds-query.handler';
import { CardProvisioningController, TokenizationSimulationsController, TokenizationsController } from './tokenizations/tokenizations.controller';
import { TokenizationStreams } from './tokenizations/tokenization-streams';
import { DisputesController } from './disputes/disputes.controller';
import { DisputeSimulationsController } from './disputes/dispute-simulations.controller';
import { ProgramDisputeReader } from './disputes/program-dispute-reader';

/** The REST API: authenticates, validates, and turns each call into a command or a query. */
@Module({
  imports: [CqrsModule, DiscoveryModule, RateLimitModule],
  controllers: [HealthController, CardsController, AuditController, TransactionsController, SimulationsController, TestClockController, CardShipmentController, CardProgramsController, AccountsController, AuthorizationStreamController, ResponderEndpointsController, EventSubscriptionsController, EventsController, SendExampleController, AuthRuleResultsController, AuthRulesController, AuthRuleBacktestsController, DashboardController, FinancialAccountsController, CardFinancialAccountsController, ThreeDSController, ThreeDSSimulationsController, TokenizationsController, TokenizationSimulationsController, CardProvisioningController, DisputesController, DisputeSimulationsController],
  providers: [
    ReadModelApiKeyDirectory,
    { provide: API_KEY_DIRECTORY, inject: [ReadModelApiKeyDirectory], useFactory: (directory: ReadModelApiKeyDirectory) => new CachedApiKeyDirectory(directory) },
    { provide: APP_FILTER, useClass: ErrorBodyFilter },
    // No global guard: the program API's controllers and the dashboard's name theirs (api-routes.ts),
    // and the declared-input check of every other route is a Fastify hook (fastify-http.ts).
    RateLimitGuard,
    DeclaredInputGuard,
    ReadsAfterWritesGuard,
    IdempotencyGuard,
    IdempotencyKeys,
    ApiKeyGuard,
    CardPresenter,
    GetCardHandler,
    SearchCardByPanHandler,
    ListCardsHandler,
    GetCardSpendLimitsHandler,
    WriteAcknowledger,
    SimulationOutcomes,
    SimulatedWrites,
    SandboxOnlyGuard,
    GetTransactionHandler,
    ListTransactionsHandler,
    GetAccountHandler,
    ListAccountsHandler,
    GetCardProgramHandler,
    ListCardProgramsHandler,
    GetAccountSpendLimitsHandler,
    GetFundingSourceHandler,
    ListFundingSourcesHandler,
    GetAuthorizationStreamHandler,
    ...EVENT_SUBSCRIPTION_QUERY_HANDLERS,
    ...AUTH_RULE_QUERY_HANDLERS,
    GetAuthRuleBacktestHandler,
    ...AUTH_RULE_RESULT_QUERY_HANDLERS,
    GetThreeDSAuthenticationHandler,
    TokenizationStreams,
    ProgramDisputeReader,
    StreamEvents,
    TimeTravel,
    Balances,
    ProgramFinancialAccounts,
    AccountBalances,
    CardFinancialTransactions,
    AccountStatements,
    LedgerCommitment,
    BuiltDashboard,
    FeedEvents,
    LiveEventStreams,
  ],
})
export class GatewayModule {}
