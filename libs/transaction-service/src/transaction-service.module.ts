import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CardLocator } from './card-locator';
import { DecideDisputeHandler } from './disputes/decide-dispute.handler';
import { ExpireAuthorizationHandler } from './expire-authorization/expire-authorization.handler';
import { SimulateAuthorizationHandler } from './simulate-authorization/simulate-authorization.handler';
import { SimulateReturnHandler } from './simulate-return/simulate-return.handler';
import { SimulateReturnReversalHandler } from './simulate-return-reversal/simulate-return-reversal.handler';
import { SimulateSettlementHandler } from './simulate-settlement/simulate-settlement.handler';
import { SimulateTransactionEventHandler } from './simulate-transaction-event/simulate-transaction-event.handler';
import { EnterThreeDSOtpHandler, RespondToThreeDSChallengeHandler, SimulateThreeDSAuthenticationHandler } from './three-ds/three-ds-authentication.handlers';
import { SimulateTokenizationHandler } from './simulate-tokenization/simulate-tokenization.handler';
import { TransactionMovements } from './transaction-movement/transaction-movement';

/** The transaction aggregate: simulated network traffic on a card's transactions. */
@Module({
  imports: [CqrsModule],
  providers: [
    CardLocator,
    TransactionMovements,
    SimulateAuthorizationHandler,
    SimulateTransactionEventHandler,
    ExpireAuthorizationHandler,
    SimulateReturnHandler,
    SimulateReturnReversalHandler,
    SimulateSettlementHandler,
    SimulateThreeDSAuthenticationHandler,
    EnterThreeDSOtpHandler,
    RespondToThreeDSChallengeHandler,
    SimulateTokenizationHandler,
    DecideDisputeHandler,
  ],
})
export class TransactionServiceModule {}
