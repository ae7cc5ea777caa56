import type { RetryDelayPolicy } from '@ledger/retry';

/**
 * Reconnection of the runtime's LISTEN connections (the events feed's, the read-your-writes
 * watcher's): quick at first, since a dropped connection is usually a restarted server or a killed
 * backend that answers again at once, then at most 5 s apart; the polls cover the gap meanwhile.
 */
export const LISTEN_RECONNECT: RetryDelayPolicy = { firstMs: 100, longestMs: 5000 };
