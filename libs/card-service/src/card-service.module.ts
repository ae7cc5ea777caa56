import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { CreateCardHandler } from './create-card/create-card.handler';
import { UpdateCardHandler } from './update-card/update-card.handler';
import { FulfillCardHandler } from './card-fulfillment/fulfill-card.handler';
import { CreateProgramHandler, IssueApiKeyHandler, RevokeApiKeyHandler } from './programs/program.handlers';
import { AddFundingSourceHandler, UpdateFundingSourceHandler, UpdateProgramSettingsHandler } from './programs/program-settings.handlers';
import { AdvanceProgramClockHandler } from './programs/program-clock.handler';
import { AuthorizeCardSpendHandler } from './card-spend/authorize-card-spend.handler';
import { ProgramSpend } from './card-spend/program-spend';
import { AuthorizationStreamClient } from './authorization-stream/authorization-stream-client';
import { CreateAuthRuleHandler, DeleteAuthRuleHandler, DraftAuthRuleHandler, PromoteAuthRuleHandler, UpdateAuthRuleHandler } from './auth-rules/auth-rule.handlers';
import { RequestAuthRuleBacktestHandler } from './auth-rules/auth-rule-backtest.handler';
import { ProgramCardHistories } from './auth-rules/program-card-histories';
import { TOKENIZATION_HANDLERS } from './tokenizations/tokenization.handlers';
import { DisenrollAuthorizationStreamHandler, EnrollAuthorizationStreamHandler, RotateAuthorizationStreamSecretHandler } from './authorization-stream/authorization-stream.handlers';

/** The card, program and auth-rule aggregates: every decision about a card, behind the command bus. */
@Module({
  imports: [CqrsModule],
  providers: [
    CreateCardHandler,
    UpdateCardHandler,
    FulfillCardHandler,
    CreateProgramHandler,
    IssueApiKeyHandler,
    RevokeApiKeyHandler,
    UpdateProgramSettingsHandler,
    AddFundingSourceHandler,
    UpdateFundingSourceHandler,
    AdvanceProgramClockHandler,
    AuthorizeCardSpendHandler,
    ProgramSpend,
    AuthorizationStreamClient,
    EnrollAuthorizationStreamHandler,
    DisenrollAuthorizationStreamHandler,
    RotateAuthorizationStreamSecretHandler,
    CreateAuthRuleHandler,
    UpdateAuthRuleHandler,
    DraftAuthRuleHandler,
    PromoteAuthRuleHandler,
    DeleteAuthRuleHandler,
    RequestAuthRuleBacktestHandler,
    ProgramCardHistories,
    ...TOKENIZATION_HANDLERS,
  ],
})
export class CardServiceModule {}
