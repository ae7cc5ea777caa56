import { IntegerParameter } from './query-parameters';
import { TokenField } from './token-field';

/** Path of GET /v1/audit/proof/{event_id}. */
export class EventIdParam {
  @TokenField({ description: 'The event id (metadata.eventId) of one of the calling program\'s events' })
  event_id!: string;
}

/**
 * A tree size: how many events, from the start of the log in global-position order, a digest covers.
 * Bounded well below 2^53 so that every accepted value, and one past it, is an exact integer.
 */
export const MAX_TREE_SIZE = 1_000_000_000_000;
const TREE_SIZE = { minimum: 0, maximum: MAX_TREE_SIZE };

/**
 * Query of GET /v1/audit/proof/{event_id}. The digest to prove against is named by its own field,
 * `tree_size`; `digest_position` is the name this parameter had first (a digest's `position` is the
 * global position of its last event, something else), still taken for the clients that use it.
 */
export class EventProofQuery {
  @IntegerParameter({ ...TREE_SIZE, minimum: 1, description: 'The tree_size of the saved digest to prove against; default, or past the head of the log: the whole log now (the answer\'s tree_size says which)' })
  tree_size?: number;

  @IntegerParameter({ ...TREE_SIZE, minimum: 1, description: 'Former name of tree_size, still accepted; tree_size wins when both are given' })
  digest_position?: number;
}

/** Query of GET /v1/audit/consistency. */
export class ConsistencyQuery {
  @IntegerParameter({ ...TREE_SIZE, default: 0, description: 'tree_size of the earlier digest' })
  from?: number;

  @IntegerParameter({ ...TREE_SIZE, description: 'tree_size of the later digest; default, or past the head of the log: the whole log now (the answer\'s to says which)' })
  to?: number;
}
