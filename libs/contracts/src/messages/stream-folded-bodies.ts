import { disputeDecider, type DisputeEvent, tokenizationDecider, type TokenizationEvent, type WebhookEventType } from '@ledger/domain';
import type { LedgerEvent } from '../events/event-catalog';
import { disputeUpdatedBody, type DisputeUpdatedBody } from '../rest/dispute-responses';
import { tokenizationUpdatedBody, type TokenizationUpdatedBody } from '../rest/tokenization-responses';

export type StreamFoldedBody = DisputeUpdatedBody | TokenizationUpdatedBody;

/**
 * The body of a dispute.updated or tokenization.updated webhook: its subject folded from the stream's
 * events up to and including the delivered one (`history`, oldest first), presented as the REST API
 * presents it. As of that event, not as of now, so a replay or a second feed renders the same bytes.
 * Null when the history does not make the subject exist (not a stream of it).
 */
export function streamFoldedBody(eventType: WebhookEventType, history: readonly LedgerEvent[]): StreamFoldedBody | null {
  if (eventType === 'dispute.updated') {
    const dispute = (history as readonly DisputeEvent[]).reduce(disputeDecider.evolve, disputeDecider.initialState());
    return dispute.status === 'ABSENT' ? null : disputeUpdatedBody(dispute);
  }
  if (eventType === 'tokenization.updated') {
    const tokenization = (history as readonly TokenizationEvent[]).reduce(tokenizationDecider.evolve, tokenizationDecider.initialState());
    return tokenization.status === 'existing' ? tokenizationUpdatedBody(tokenization) : null;
  }
  throw new Error(`${eventType} is not a stream-folded webhook`);
}
