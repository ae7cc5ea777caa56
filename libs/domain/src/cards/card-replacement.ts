import type { Card } from './card-state';
import { ReplacedCardNotFound, ReplacementTypeMismatch } from './card-errors';
import type { CardType, SpendLimitDuration } from './card-values';

/** What a replacement card takes from the card it replaces, for each of these the create request left out. */
export interface ReplacementTerms {
  readonly spendLimit: number;
  readonly spendLimitDuration: SpendLimitDuration;
  readonly fundingToken: string;
}

/**
 * A replacement (Lithic's replacement_for) is a new card, with a new number, for a card of the same
 * program and type (Lithic: a PHYSICAL card is replaced by a PHYSICAL one, a VIRTUAL by a VIRTUAL).
 * It spends under the replaced card's limits and funding unless the request names others, so a
 * cardholder whose card was lost keeps what they had. The replaced card is left as it is: closing it
 * (or not, while the new plastic travels) is the caller's decision, as with Lithic.
 */
export function replacementTerms(replaced: Card, replacedToken: string, programToken: string, cardType: CardType): ReplacementTerms {
  if (replaced.status !== 'issued' || replaced.programToken !== programToken) throw new ReplacedCardNotFound(replacedToken);
  if (replaced.cardType !== cardType) throw new ReplacementTypeMismatch(replaced.cardType, cardType);
  return { spendLimit: replaced.spendLimit, spendLimitDuration: replaced.spendLimitDuration, fundingToken: replaced.fundingToken };
}
