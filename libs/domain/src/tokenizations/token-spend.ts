import { InvalidInput } from '../core/domain-error';
import type { DeclineReason } from '../transactions/transaction-values';
import { ownedTokenization, type Tokenization, type TokenWalletType, walletTypeOf } from './tokenization';

/** What an authorization made through a token records of it: Lithic's `token_info`. */
export interface TokenInfo {
  readonly tokenizationToken: string;
  readonly walletType: TokenWalletType;
}

export interface TokenSpendCheck {
  readonly tokenInfo: TokenInfo;
  /** null when the token may spend. */
  readonly decline: DeclineReason | null;
}

/** The token named is another card's: the request is wrong, nothing is decided. */
export class TokenizationNotOfCard extends InvalidInput {
  static override readonly code = 'tokenization_not_of_card';
  constructor(tokenizationToken: string, cardToken: string) {
    super(`Tokenization ${tokenizationToken} is not a token of card ${cardToken}`, 'tokenization_token');
  }
}

/**
 * Whether a token may spend on its card. Only an ACTIVE token may. The spec's results speak of the
 * card, and a token is the card in a wallet: a DEACTIVATED token (final) declines as a closed card
 * does (CARD_CLOSED), a token that is paused or not yet active as a paused card does (CARD_PAUSED).
 */
export function tokenSpendCheck(tokenization: Tokenization, tokenizationToken: string, cardToken: string, programToken: string): TokenSpendCheck {
  const token = ownedTokenization(tokenization, tokenizationToken, programToken);
  if (token.cardToken !== cardToken) throw new TokenizationNotOfCard(tokenizationToken, cardToken);
  const tokenInfo = { tokenizationToken, walletType: walletTypeOf(token.source) };
  if (token.tokenStatus === 'ACTIVE') return { tokenInfo, decline: null };
  return { tokenInfo, decline: token.tokenStatus === 'DEACTIVATED' ? 'CARD_CLOSED' : 'CARD_PAUSED' };
}
