import { Inject, Injectable } from '@nestjs/common';
import { ledgerCodec } from '@ledger/contracts';
import { type Dispute, disputeDecider, type DisputeEvent, disputeStreamId, type DisputeListed, type FiledDispute, foldEvents, ownedDispute, programDisputesFolder, programDisputesStreamId } from '@ledger/domain';
import type { EventStore } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';

/**
 * Disputes as their streams hold them, folded on each read (no read-model table holds them): one
 * stream for a retrieve, the program's list stream and each listed dispute's for a list. The event
 * store answers with every committed write, so a read right after a write sees it.
 */
@Injectable()
export class ProgramDisputeReader {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async owned(programToken: string, disputeToken: string): Promise<FiledDispute> {
    return ownedDispute(await this.fold(disputeToken), disputeToken, programToken);
  }

  /** Every dispute of the program, in the order they were filed. */
  async all(programToken: string): Promise<FiledDispute[]> {
    const listed = (await this.store.readStream(programDisputesStreamId(programToken))).map((event) => ledgerCodec<DisputeListed>().decode(event));
    const { disputeTokens } = foldEvents(programDisputesFolder, listed);
    const disputes: FiledDispute[] = [];
    // One at a time: a program's disputes can be many, and each read holds its whole stream.
    for (const token of disputeTokens) disputes.push(ownedDispute(await this.fold(token), token, programToken));
    return disputes;
  }

  private async fold(disputeToken: string): Promise<Dispute> {
    const recorded = await this.store.readStream(disputeStreamId(disputeToken));
    return foldEvents(disputeDecider, recorded.map((event) => ledgerCodec<DisputeEvent>().decode(event)));
  }
}
