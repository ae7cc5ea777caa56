import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import { CommandAccepted, UpdateCardCommand } from '@ledger/contracts';
import { cardDecider, cardStreamId, programDecider, programStreamId, resolveFundingSource, ProgramNotFound } from '@ledger/domain';
import { commandHandler, PipelineEnvironment } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

@CommandHandler(UpdateCardCommand)
export class UpdateCardHandler implements ICommandHandler<UpdateCardCommand, CommandAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  async execute({ origin, cardToken, changes }: UpdateCardCommand): Promise<CommandAccepted> {
    if (changes.fundingToken !== undefined) await this.checkFundingSource(origin.programToken, changes.fundingToken);
    const outcome = await commandHandler(this.env, cardDecider, cardStreamId(cardToken)).handle({
      type: 'UpdateCard',
      cardToken,
      programToken: origin.programToken,
      state: changes.state,
      memo: changes.memo,
      fundingToken: changes.fundingToken,
      spendLimit: changes.spendLimit,
      spendLimitDuration: changes.spendLimitDuration,
      pinHash: changes.pin === undefined ? undefined : this.vault.pinHash(cardToken, changes.pin),
    }, origin);
    return commandAccepted(cardToken, outcome);
  }

  private async checkFundingSource(programToken: string, fundingToken: string): Promise<void> {
    const program = await commandHandler(this.env, programDecider, programStreamId(programToken)).state();
    if (program.status === 'absent') throw new ProgramNotFound(programToken);
    resolveFundingSource(program, fundingToken);
  }
}
