import type { Card, IssuedCard } from '../cards/card-state';
import { CardNotFound } from '../cards/card-errors';
import { CardNotProvisionable } from './tokenization-errors';

/**
 * Whether a card may be pushed to a wallet (`cards.provision`, `cards.webProvision`). The spec gives
 * DIGITAL_WALLET cards alone this use, and a wallet can only be given a card that can spend (OPEN).
 * Provisioning records nothing: the token is made when the wallet then asks for it (tokenizations).
 */
export function provisionableCard(card: Card, cardToken: string, programToken: string): IssuedCard {
  if (card.status !== 'issued' || card.programToken !== programToken) throw new CardNotFound(cardToken);
  if (card.cardType !== 'DIGITAL_WALLET') throw new CardNotProvisionable(cardToken, `it is a ${card.cardType} card; only DIGITAL_WALLET cards are provisioned to a wallet`);
  if (card.state !== 'OPEN') throw new CardNotProvisionable(cardToken, `it is ${card.state}`);
  return card;
}
