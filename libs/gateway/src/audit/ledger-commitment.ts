import { Inject, Injectable } from '@nestjs/common';
import { comparePositions, EventStore } from '@ledger/event-store';
import { consistencyQuery, ExportedEvent, inclusionQuery, rootQuery, SignedDigest } from '@ledger/ledger-proof';
import { DigestKeys, EVENT_STORE, type FollowedHead, LEDGER_CONFIG, type LedgerConfig, LedgerTreeTables, signKeptTree } from '@ledger/runtime';
import { AuditedEventNotFound, BackwardsConsistencyRange, LedgerCommitmentBehind, LedgerCommitmentOff } from './audit-errors';
import type { AuditedEvent, ConsistencyResponse, EventProofResponse } from './audit-responses';
import { audited } from './stream-events';

/** Between two looks at the kept tree while waiting for it to reach the log's head. */
const FOLLOW_POLL_MS = 20;

/**
 * The ledger-wide commitment served to auditors: signed digests of the log, and proofs, read from the
 * tree the projector keeps as the log grows (LedgerTreeTables): O(log n) stored nodes a request, and
 * for a proof one event read back. What leaves here about other programs is a root, a size and a
 * position, never their events.
 *
 * "The whole log now" is the log's head when the request arrives: the answer waits up to
 * LEDGER_COMMITMENT_WAIT_MS for the kept tree to reach it, then answers for the size it holds (the
 * answer's tree_size and position say which). An explicit size the tree has not reached by then is 503.
 */
@Injectable()
export class LedgerCommitment {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly keys: DigestKeys,
    private readonly tables: LedgerTreeTables,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  async digest(): Promise<SignedDigest> {
    return signKeptTree(this.tables, this.keys.signer, await this.followed());
  }

  /**
   * The program's own event and its audit path in the tree of the first treeSize events (default, or
   * past the head: the whole log now; the answer's tree_size says which tree, and an auditor's
   * verifier refuses a proof for another size than its digest's). An event after that tree, another
   * program's or an unknown one is not found.
   */
  async proof(programToken: string, eventId: string, treeSize?: number): Promise<EventProofResponse> {
    const size = Math.min(treeSize ?? Number.POSITIVE_INFINITY, (await this.followed(treeSize)).size);
    const place = await this.tables.leafOf(eventId);
    if (!place || place.index >= size) throw new AuditedEventNotFound(eventId);
    const [event] = await this.store.readAll({ after: place.previous, maxCount: 1 });
    // The event as stored now: had it been moved or removed since it was hashed, it is not this one.
    if (!event || event.metadata.eventId !== eventId || event.metadata.programToken !== programToken) throw new AuditedEventNotFound(eventId);
    const path = inclusionQuery(place.index, size);
    const root = rootQuery(size);
    const hashes = await this.tables.nodes([...path.needs, ...root.needs, { level: 0, index: place.index }]);
    return {
      event: exportedEventOfAudited(audited(event)),
      leaf_hash: hashes.hash(0, place.index).toString('hex'),
      leaf_index: place.index,
      tree_size: size,
      audit_path: path.answer(hashes).map((hash) => hash.toString('hex')),
      root: root.answer(hashes).toString('hex'),
    };
  }

  /**
   * Sizes past the head of the log are read as the head (the answer's sizes and roots say which
   * trees); `to` unset: the whole log now. An earlier tree cannot extend a later one: from > to is refused.
   */
  async consistency(from: number, to?: number): Promise<ConsistencyResponse> {
    if (to !== undefined && from > to) throw new BackwardsConsistencyRange(`from (${from}) must not be greater than to (${to})`, 'from');
    const second = Math.min(to ?? Number.POSITIVE_INFINITY, (await this.followed(to)).size);
    const first = Math.min(from, second);
    const query = consistencyQuery(first, second);
    const { firstRoot, secondRoot, proof } = query.answer(await this.tables.nodes(query.needs));
    return { from: first, to: second, from_root: firstRoot.toString('hex'), to_root: secondRoot.toString('hex'), proof: proof.map((hash) => hash.toString('hex')) };
  }

  /**
   * The kept tree, once it holds `size` events or has reached the log's head as it was when asked,
   * whichever comes first. Past the wait: the tree as it is when no size was asked for, else 503.
   */
  private async followed(size?: number): Promise<FollowedHead> {
    if (!this.config.ledgerCommitment) throw new LedgerCommitmentOff();
    let head = await this.tables.head();
    if (size !== undefined && head.size >= size) return head;
    const target = await this.store.headPosition();
    const deadline = Date.now() + this.config.ledgerCommitmentWaitMs;
    while (target && (head.position === null || comparePositions(head.position, target) < 0)) {
      if (Date.now() >= deadline) {
        if (size === undefined) return head;
        throw new LedgerCommitmentBehind(size, head.size, this.config.ledgerCommitmentWaitMs);
      }
      await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
      head = await this.tables.head();
    }
    return head;
  }
}

/** The audit API's view of the event (secret fields redacted): its leaf hash is the stored event's (committedData). */
function exportedEventOfAudited(event: AuditedEvent): ExportedEvent {
  const { event_id: _eventId, ...stored } = event;
  return stored as ExportedEvent;
}
