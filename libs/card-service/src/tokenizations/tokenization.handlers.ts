import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CardVault } from '@ledger/card-vault';
import {
  ChangeTokenizationStatusCommand,
  CommandAccepted,
  type CommandOrigin,
  ResendActivationCodeCommand,
  TokenizeCardCommand,
  UpdateDigitalCardArtCommand,
  type WalletTokenizationRequest,
} from '@ledger/contracts';
import {
  cardDecider,
  CardNotFound,
  cardStreamId,
  type IssuedCard,
  type PresentedMatches,
  programDecider,
  ProgramNotFound,
  programStreamId,
  programTime,
  programTokenizationsDecider,
  programTokenizationsStreamId,
  type TokenizationCommand,
  tokenizationDecider,
  tokenizationStreamId,
} from '@ledger/domain';
import { decideAcrossStreams, PipelineEnvironment, type StreamReader } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

async function programNow(reader: StreamReader, programToken: string, env: PipelineEnvironment) {
  const program = await reader.fold(programDecider, programStreamId(programToken));
  if (program.state.status === 'absent') throw new ProgramNotFound(programToken);
  return { program, now: programTime(program.state.clock, env.now()) };
}

/**
 * A wallet's request to tokenize a card: decided against the card (its type, state, and the details
 * the wallet presented, compared here where the vault is) on a new tokenization stream, listed on the
 * program's, in one write that checks the card's and the program's versions.
 */
@CommandHandler(TokenizeCardCommand)
export class TokenizeCardHandler implements ICommandHandler<TokenizeCardCommand, CommandAccepted> {
  constructor(
    @Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment,
    private readonly vault: CardVault,
  ) {}

  async execute({ origin, cardToken, request }: TokenizeCardCommand): Promise<CommandAccepted> {
    const programToken = origin.programToken;
    const tokenizationToken = this.env.newId();
    const eventToken = this.env.newId();
    const stream = tokenizationStreamId(tokenizationToken);
    const listStream = programTokenizationsStreamId(programToken);
    const cardStream = cardStreamId(cardToken);
    const outcome = await decideAcrossStreams(this.env, origin, stream, async (reader) => {
      const { program, now } = await programNow(reader, programToken, this.env);
      const card = await reader.fold(cardDecider, cardStream);
      if (card.state.status !== 'issued' || card.state.programToken !== programToken) throw new CardNotFound(cardToken);
      const issued = card.state;
      const tokenization = await reader.fold(tokenizationDecider, stream);
      const list = await reader.fold(programTokenizationsDecider, listStream);
      const decided = tokenizationDecider.decide(
        {
          type: 'DecideTokenization',
          tokenizationToken,
          eventToken,
          card: { cardToken, programToken, cardType: issued.cardType, state: issued.state },
          presented: this.presentedMatches(issued, request),
          source: request.source,
          accountScore: request.accountScore,
          deviceScore: request.deviceScore,
          walletRecommendedDecision: request.walletRecommendedDecision,
        },
        tokenization.state,
        { now },
      );
      const listed = programTokenizationsDecider.decide({ type: 'ListTokenization', programToken, tokenizationToken }, list.state, { now });
      return {
        now,
        result: null,
        streams: [
          { streamId: stream, folder: tokenizationDecider, fold: tokenization, events: decided, mustBeNew: true },
          { streamId: listStream, folder: programTokenizationsDecider, fold: list, events: listed },
          { streamId: cardStream, folder: cardDecider, fold: card, events: [] },
          { streamId: programStreamId(programToken), folder: programDecider, fold: program, events: [] },
        ],
      };
    });
    return commandAccepted(tokenizationToken, { position: outcome.position ?? undefined });
  }

  /** The CVV is derived from the PAN and the card's expiry, never stored; the expiry is printed MM/YY. */
  private presentedMatches(card: IssuedCard, request: WalletTokenizationRequest): PresentedMatches {
    const [month, year] = request.expirationDate.split('/');
    return {
      cvv: request.cvv === this.vault.cvv(this.vault.decrypt(card.panEncrypted), card.expMonth, card.expYear),
      expMonth: month === card.expMonth,
      expYear: year === card.expYear.slice(-2),
    };
  }
}

/** A command on an existing token: its stream alone decides it (the card is not read: a token outlives nothing it needs from it). */
async function decideOnToken(env: PipelineEnvironment, origin: CommandOrigin, tokenizationToken: string, command: (eventToken: string) => TokenizationCommand): Promise<CommandAccepted> {
  const stream = tokenizationStreamId(tokenizationToken);
  const eventToken = env.newId();
  const outcome = await decideAcrossStreams(env, origin, stream, async (reader) => {
    const { now } = await programNow(reader, origin.programToken, env);
    const tokenization = await reader.fold(tokenizationDecider, stream);
    const events = tokenizationDecider.decide(command(eventToken), tokenization.state, { now });
    return { now, result: null, streams: [{ streamId: stream, folder: tokenizationDecider, fold: tokenization, events }] };
  });
  return commandAccepted(tokenizationToken, { position: outcome.position ?? undefined });
}

@CommandHandler(ChangeTokenizationStatusCommand)
export class ChangeTokenizationStatusHandler implements ICommandHandler<ChangeTokenizationStatusCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  execute({ origin, tokenizationToken, action }: ChangeTokenizationStatusCommand): Promise<CommandAccepted> {
    return decideOnToken(this.env, origin, tokenizationToken, (eventToken) => ({ type: 'ChangeTokenizationStatus', tokenizationToken, programToken: origin.programToken, eventToken, action }));
  }
}

@CommandHandler(ResendActivationCodeCommand)
export class ResendActivationCodeHandler implements ICommandHandler<ResendActivationCodeCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  execute({ origin, tokenizationToken, method }: ResendActivationCodeCommand): Promise<CommandAccepted> {
    return decideOnToken(this.env, origin, tokenizationToken, (eventToken) => ({ type: 'ResendActivationCode', tokenizationToken, programToken: origin.programToken, eventToken, method }));
  }
}

@CommandHandler(UpdateDigitalCardArtCommand)
export class UpdateDigitalCardArtHandler implements ICommandHandler<UpdateDigitalCardArtCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  execute({ origin, tokenizationToken, digitalCardArtToken }: UpdateDigitalCardArtCommand): Promise<CommandAccepted> {
    return decideOnToken(this.env, origin, tokenizationToken, (eventToken) => ({ type: 'UpdateDigitalCardArt', tokenizationToken, programToken: origin.programToken, eventToken, digitalCardArtToken }));
  }
}

export const TOKENIZATION_HANDLERS = [TokenizeCardHandler, ChangeTokenizationStatusHandler, ResendActivationCodeHandler, UpdateDigitalCardArtHandler];
