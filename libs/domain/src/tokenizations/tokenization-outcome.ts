import type { CardType, CardState } from '../cards/card-values';
import type { TokenizationOutcome, TokenizationSource } from './tokenization';

/**
 * What a wallet's request to tokenize a card decides, from the card and what the wallet sent. The
 * sandbox follows Lithic's simulate: the wallet's recommendation and scores drive the outcome; here
 * the card's own checks (its type, state and the details the wallet presented) come first.
 */

export interface TokenizedCardFacts {
  readonly cardToken: string;
  readonly programToken: string;
  readonly cardType: CardType;
  readonly state: CardState;
}

/** The card details the wallet presented, compared with the card's where the vault is. */
export interface PresentedMatches {
  readonly cvv: boolean;
  readonly expMonth: boolean;
  readonly expYear: boolean;
}

export interface TokenizationRequest {
  readonly card: TokenizedCardFacts;
  readonly presented: PresentedMatches;
  readonly source: TokenizationSource;
  /** Lithic's 1 (riskiest) to 5; absent: not scored. */
  readonly accountScore?: number;
  readonly deviceScore?: number;
  readonly walletRecommendedDecision?: TokenizationOutcome;
}

export interface DecidedOutcome {
  readonly outcome: TokenizationOutcome;
  readonly declineReasons: readonly string[];
  readonly tfaReasons: readonly string[];
}

/**
 * Only DIGITAL_WALLET cards are provisioned to a wallet: the spec gives that card type alone this use.
 * A card that is not OPEN is refused too. A score of 1 is the lowest and refuses, as Lithic's reason
 * names (ACCOUNT_SCORE_1, DEVICE_SCORE_1) say.
 */
export function declineReasonsOf(request: TokenizationRequest): string[] {
  const { card, presented } = request;
  const reasons: string[] = [];
  if (card.cardType !== 'DIGITAL_WALLET' || card.state !== 'OPEN') reasons.push('CARD_INVALID_STATE');
  if (!presented.cvv) reasons.push('CVC_MISMATCH');
  if (!presented.expMonth) reasons.push('CARD_EXPIRY_MONTH_MISMATCH');
  if (!presented.expYear) reasons.push('CARD_EXPIRY_YEAR_MISMATCH');
  if (request.accountScore === 1) reasons.push('ACCOUNT_SCORE_1');
  if (request.deviceScore === 1) reasons.push('DEVICE_SCORE_1');
  if (request.walletRecommendedDecision === 'DECLINED') reasons.push('WALLET_RECOMMENDED_DECISION_RED');
  return reasons;
}

export function decideTokenizationOutcome(request: TokenizationRequest): DecidedOutcome {
  const declineReasons = declineReasonsOf(request);
  if (declineReasons.length > 0) return { outcome: 'DECLINED', declineReasons, tfaReasons: [] };
  if (request.walletRecommendedDecision === 'REQUIRE_ADDITIONAL_AUTHENTICATION') return { outcome: 'REQUIRE_ADDITIONAL_AUTHENTICATION', declineReasons: [], tfaReasons: ['WALLET_RECOMMENDED_TFA'] };
  return { outcome: 'APPROVED', declineReasons: [], tfaReasons: [] };
}
