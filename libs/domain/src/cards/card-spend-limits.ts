import type { IssuedCard } from './card-state';
import { NO_SPEND_LIMIT, SpendLimitDuration } from './card-values';

/** Lithic's name for a duration's figures in a card's spend-limit answer. */
export type SpendLimitKey = 'daily' | 'monthly' | 'annually' | 'forever';

/** A card's limit over its window now: what it may spend, what counts against it, what is left. */
export interface CardSpendLimitStanding {
  readonly key: SpendLimitKey;
  readonly limit: number;
  readonly spent: bigint;
  /** Never below 0: a limit lowered under what was already spent leaves nothing, not a debt. */
  readonly available: bigint;
}

const KEYS: Record<Exclude<SpendLimitDuration, 'TRANSACTION'>, SpendLimitKey> = { DAILY: 'daily', MONTHLY: 'monthly', ANNUALLY: 'annually', FOREVER: 'forever' };

/**
 * The card's standing against its limit, by the same rule the authorization applies
 * (SpendHistory.spentIn), so what this says is available is exactly what the next authorization may spend.
 * None for a card without a limit (0) or with a TRANSACTION limit, which has no window to spend in.
 */
export function cardSpendLimitStanding(card: Pick<IssuedCard, 'spendLimit' | 'spendLimitDuration' | 'spend'>, now: Date): CardSpendLimitStanding | null {
  if (card.spendLimit === NO_SPEND_LIMIT || card.spendLimitDuration === 'TRANSACTION') return null;
  const spent = card.spend.spentIn(card.spendLimitDuration, now);
  const left = BigInt(card.spendLimit) - spent;
  return { key: KEYS[card.spendLimitDuration], limit: card.spendLimit, spent, available: left > 0n ? left : 0n };
}
