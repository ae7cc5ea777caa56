import { Inject, Injectable } from '@nestjs/common';
import { EventStore } from '@ledger/event-store';
import { consistencyProof, EventProof, ExportedEvent, inclusionPathOf, SignedDigest, treeRoot } from '@ledger/ledger-proof';
import { DigestKeys, EVENT_STORE, readLedgerLeaves } from '@ledger/runtime';
import { AuditedEventNotFound, BackwardsConsistencyRange } from './audit-errors';
import { audited, AuditedEvent } from './stream-events';

export interface ConsistencyResponse {
  readonly from: number;
  readonly to: number;
  readonly from_root: string;
  readonly to_root: string;
  readonly proof: string[];
}

export interface EventProofResponse extends EventProof {
  /** The root of the tree of tree_size events: the one the auditor's saved digest must show. */
  readonly root: string;
}

/**
 * The ledger-wide commitment served to auditors: signed digests of the whole log, and proofs. Each
 * call reads the log afresh (a first version: correct, and O(events) per call; docs/audit.md, "Cost").
 * What leaves here about other programs is a root, a size and a position, never their events.
 */
@Injectable()
export class LedgerCommitment {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly keys: DigestKeys,
  ) {}

  async digest(): Promise<SignedDigest> {
    const { leaves, lastPosition } = await readLedgerLeaves(this.store);
    return this.keys.signer.sign({
      tree_size: leaves.length,
      position: lastPosition,
      root: treeRoot(leaves).toString('hex'),
      signed_at: new Date().toISOString(),
    });
  }

  /**
   * The program's own event and its audit path in the tree of the first treeSize events (default, or
   * past the head: the whole log now; the answer's tree_size says which tree, and an auditor's
   * verifier refuses a proof for another size than its digest's). An event after that tree, another
   * program's or an unknown one is not found.
   */
  async proof(programToken: string, eventId: string, treeSize?: number): Promise<EventProofResponse> {
    let found: { event: AuditedEvent; index: number } | null = null;
    const { leaves } = await readLedgerLeaves(this.store, {
      limit: treeSize,
      visit: (event, index) => {
        if (!found && event.metadata.eventId === eventId && event.metadata.programToken === programToken) found = { event: audited(event), index };
      },
    });
    if (!found) throw new AuditedEventNotFound(eventId);
    const { event, index } = found as { event: AuditedEvent; index: number };
    return {
      event: exportedEventOfAudited(event),
      leaf_hash: leaves.leaf(index).toString('hex'),
      ...inclusionPathOf(leaves, index, leaves.length),
      root: treeRoot(leaves).toString('hex'),
    };
  }

  /**
   * Sizes past the head of the log are read as the head (the answer's sizes and roots say which
   * trees); `to` unset: the whole log now. An earlier tree cannot extend a later one: from > to is refused.
   */
  async consistency(from: number, to?: number): Promise<ConsistencyResponse> {
    if (to !== undefined && from > to) throw new BackwardsConsistencyRange(`from (${from}) must not be greater than to (${to})`, 'from');
    const { leaves } = await readLedgerLeaves(this.store, { limit: to });
    const second = leaves.length;
    const first = Math.min(from, second);
    return {
      from: first,
      to: second,
      from_root: treeRoot(leaves, first).toString('hex'),
      to_root: treeRoot(leaves, second).toString('hex'),
      proof: consistencyProof(leaves, first, second).map((hash) => hash.toString('hex')),
    };
  }
}

/** The audit API's view of the event (secret fields redacted): its leaf hash is the stored event's (committedData). */
function exportedEventOfAudited(event: AuditedEvent): ExportedEvent {
  const { event_id: _eventId, ...stored } = event;
  return stored as ExportedEvent;
}
