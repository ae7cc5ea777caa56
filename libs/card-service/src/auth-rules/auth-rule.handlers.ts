import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  AuthRuleScopeFields,
  CommandAccepted,
  CommandOrigin,
  CreateAuthRuleCommand,
  DeleteAuthRuleCommand,
  DraftAuthRuleCommand,
  PromoteAuthRuleCommand,
  UpdateAuthRuleCommand,
} from '@ledger/contracts';
import {
  AuthRuleCommand,
  authRuleDecider,
  authRuleStreamId,
  cardDecider,
  cardStreamId,
  ownedCard,
  programAuthRulesDecider,
  programAuthRulesStreamId,
  programDecider,
  ProgramNotFound,
  programStreamId,
  programTime,
} from '@ledger/domain';
import { decideAcrossStreams, PipelineEnvironment, StreamReader } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

/**
 * Auth rules are decided beside the cards they limit: the card-service hosts them, as the
 * authorization that enforces them reads them there. Each command is decided on the rule's own
 * stream at the program's time (its sandbox clock), after the cards the scope names are found to be
 * the program's: a rule never names another program's card. A creation and a deletion also change
 * the program's list of rules (program-auth-rules.ts) in the same atomic write.
 */
async function run(env: PipelineEnvironment, origin: CommandOrigin, authRuleToken: string, command: AuthRuleCommand, scope: AuthRuleScopeFields | null): Promise<CommandAccepted> {
  const ruleStream = authRuleStreamId(authRuleToken);
  const outcome = await decideAcrossStreams(env, origin, ruleStream, async (reader) => {
    const program = await reader.fold(programDecider, programStreamId(origin.programToken));
    if (program.state.status === 'absent') throw new ProgramNotFound(origin.programToken);
    const now = programTime(program.state.clock, env.now());
    if (scope !== null) await refuseForeignCards(reader, origin.programToken, scope);
    const rule = await reader.fold(authRuleDecider, ruleStream);
    const events = authRuleDecider.decide(command, rule.state, { now });
    const ruleDecision = { streamId: ruleStream, folder: authRuleDecider, fold: rule, events, mustBeNew: command.type === 'CreateAuthRule' };
    const listing = listingOf(command);
    if (listing === null) return { now, result: null, streams: [ruleDecision] };
    const listStream = programAuthRulesStreamId(origin.programToken);
    const list = await reader.fold(programAuthRulesDecider, listStream);
    const listed = programAuthRulesDecider.decide({ type: listing, programToken: origin.programToken, authRuleToken }, list.state, { now });
    return { now, result: null, streams: [ruleDecision, { streamId: listStream, folder: programAuthRulesDecider, fold: list, events: listed }] };
  });
  return commandAccepted(authRuleToken, { position: outcome.position ?? undefined });
}

function listingOf(command: AuthRuleCommand): 'ListAuthRule' | 'UnlistAuthRule' | null {
  if (command.type === 'CreateAuthRule') return 'ListAuthRule';
  if (command.type === 'DeleteAuthRule') return 'UnlistAuthRule';
  return null;
}

/** A card is the program's for good once created, so its stream is read, not written: the rule's write does not wait on the card's authorizations. */
async function refuseForeignCards(reader: StreamReader, programToken: string, scope: AuthRuleScopeFields): Promise<void> {
  for (const cardToken of new Set([...(scope.cardTokens ?? []), ...(scope.excludedCardTokens ?? [])])) {
    ownedCard((await reader.fold(cardDecider, cardStreamId(cardToken))).state, cardToken, programToken);
  }
}

/** A new rule: its parameters become its first draft, which runs in shadow until promoted. */
@CommandHandler(CreateAuthRuleCommand)
export class CreateAuthRuleHandler implements ICommandHandler<CreateAuthRuleCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  execute({ origin, rule }: CreateAuthRuleCommand): Promise<CommandAccepted> {
    const authRuleToken = this.env.newId();
    return run(
      this.env,
      origin,
      authRuleToken,
      { type: 'CreateAuthRule', authRuleToken, programToken: origin.programToken, name: rule.name, ruleType: rule.type, parameters: rule.parameters, scope: rule.scope, eventStream: rule.eventStream },
      rule.scope,
    );
  }
}

@CommandHandler(UpdateAuthRuleCommand)
export class UpdateAuthRuleHandler implements ICommandHandler<UpdateAuthRuleCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  execute({ origin, authRuleToken, changes }: UpdateAuthRuleCommand): Promise<CommandAccepted> {
    const command: AuthRuleCommand = { type: 'UpdateAuthRule', authRuleToken, programToken: origin.programToken, name: changes.name, state: changes.state, scope: changes.scope };
    return run(this.env, origin, authRuleToken, command, changes.scope);
  }
}

@CommandHandler(DraftAuthRuleCommand)
export class DraftAuthRuleHandler implements ICommandHandler<DraftAuthRuleCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  execute({ origin, authRuleToken, parameters }: DraftAuthRuleCommand): Promise<CommandAccepted> {
    return run(this.env, origin, authRuleToken, { type: 'DraftAuthRule', authRuleToken, programToken: origin.programToken, parameters }, null);
  }
}

@CommandHandler(PromoteAuthRuleCommand)
export class PromoteAuthRuleHandler implements ICommandHandler<PromoteAuthRuleCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  execute({ origin, authRuleToken }: PromoteAuthRuleCommand): Promise<CommandAccepted> {
    return run(this.env, origin, authRuleToken, { type: 'PromoteAuthRule', authRuleToken, programToken: origin.programToken }, null);
  }
}

@CommandHandler(DeleteAuthRuleCommand)
export class DeleteAuthRuleHandler implements ICommandHandler<DeleteAuthRuleCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  execute({ origin, authRuleToken }: DeleteAuthRuleCommand): Promise<CommandAccepted> {
    return run(this.env, origin, authRuleToken, { type: 'DeleteAuthRule', authRuleToken, programToken: origin.programToken }, null);
  }
}
