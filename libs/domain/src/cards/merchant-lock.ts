import type { Merchant } from '../transactions/transaction-values';

/**
 * What a merchant-locked card is locked to: the acceptor id when the network sent one, else the
 * descriptor. A card rule: the card records it with its first approval and compares every later one.
 */
export function merchantKey(merchant: Merchant): string {
  return merchant.acceptorId !== '' ? `acceptor:${merchant.acceptorId}` : `descriptor:${merchant.descriptor.trim().toLowerCase()}`;
}
