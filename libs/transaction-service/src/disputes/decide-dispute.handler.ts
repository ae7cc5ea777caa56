import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CommandAccepted, DecideDisputeCommand, type DisputeRequest } from '@ledger/contracts';
import {
  type DisputeCommand,
  type DisputeEvent,
  type DisputeListed,
  type ProgramDisputes,
  foldEvents,
  decideDisputeAndTransaction,
  disputeDecider,
  disputeStreamId,
  disputeTokenOf,
  DisputeNotFound,
  listingOf,
  programDisputesFolder,
  programDisputesStreamId,
  transactionDecider,
  transactionStreamId,
} from '@ledger/domain';
import { businessTime, decideAcrossStreams, PipelineEnvironment, type StreamDecision, type StreamReader } from '@ledger/event-store';
import { PIPELINE_ENVIRONMENT, commandAccepted } from '@ledger/runtime';

/**
 * Every dispute command: decided on the dispute's stream and its transaction's, written in one
 * atomic write. The transaction's stream is checked on every decision (a filing reads what it
 * settled) and written when the case is won (its credit). Queued by the dispute's stream: its
 * commands are the ones that collide.
 */
@CommandHandler(DecideDisputeCommand)
export class DecideDisputeHandler implements ICommandHandler<DecideDisputeCommand, CommandAccepted> {
  constructor(@Inject(PIPELINE_ENVIRONMENT) private readonly env: PipelineEnvironment) {}

  async execute({ origin, request }: DecideDisputeCommand): Promise<CommandAccepted> {
    const command = domainCommand(request, origin.programToken);
    const disputeToken = command.type === 'FileDispute' ? disputeTokenOf(command.transactionToken) : command.disputeToken;
    const disputeStream = disputeStreamId(disputeToken);
    const transactionToken = command.type === 'FileDispute' ? command.transactionToken : await this.transactionOf(disputeToken, origin.programToken);
    const transactionStream = transactionStreamId(transactionToken);
    const outcome = await decideAcrossStreams(this.env, origin, disputeStream, async (reader) => {
      const [dispute, transaction] = await Promise.all([reader.fold(disputeDecider, disputeStream), reader.fold(transactionDecider, transactionStream)]);
      const now = await businessTime(this.env, origin.programToken);
      const decided = decideDisputeAndTransaction(command, dispute.state, transaction.state, now, this.env.newId());
      // Only a filing lists the dispute: the program's list is read and written then alone.
      const listing = command.type === 'FileDispute' && decided.dispute.length > 0 ? await this.listing(reader, origin.programToken, decided.dispute) : [];
      return {
        now,
        result: null,
        streams: [
          { streamId: disputeStream, folder: disputeDecider, fold: dispute, events: decided.dispute },
          { streamId: transactionStream, folder: transactionDecider, fold: transaction, events: decided.transaction },
          ...listing,
        ],
      };
    });
    return commandAccepted(disputeToken, { position: outcome.position ?? undefined });
  }

  private async listing(reader: StreamReader, programToken: string, events: readonly DisputeEvent[]): Promise<StreamDecision<DisputeListed, ProgramDisputes>[]> {
    const streamId = programDisputesStreamId(programToken);
    const disputes = await reader.fold(programDisputesFolder, streamId);
    return [{ streamId, folder: programDisputesFolder, fold: disputes, events: listingOf(disputes.state, events) }];
  }

  /** The dispute's transaction: fixed when it was filed, so one read outside the decision finds it. */
  private async transactionOf(disputeToken: string, programToken: string): Promise<string> {
    const recorded = await this.env.store.readStream(disputeStreamId(disputeToken));
    const dispute = foldEvents(disputeDecider, recorded.map((event) => this.env.codec.decode(event) as DisputeEvent));
    if (dispute.status === 'ABSENT' || dispute.programToken !== programToken) throw new DisputeNotFound(disputeToken);
    return dispute.transactionToken;
  }
}

function domainCommand(request: DisputeRequest, programToken: string): DisputeCommand {
  if (request.type === 'UploadDisputeEvidence') {
    const { contentBase64, ...rest } = request;
    return { ...rest, programToken, content: Buffer.from(contentBase64, 'base64') };
  }
  return { ...request, programToken } as DisputeCommand;
}
