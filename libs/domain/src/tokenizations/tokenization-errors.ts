import { Conflict, NotFound } from '../core/domain-error';

export class TokenizationNotFound extends NotFound {
  static override readonly code = 'tokenization_not_found';
  constructor(readonly tokenizationToken: string) {
    super(`Tokenization ${tokenizationToken} not found`, 'tokenization_token');
  }
}

/** A transition the token's status does not allow (activating a deactivated token, pausing a paused one). */
export class TokenizationTransitionRefused extends Conflict {
  static override readonly code = 'tokenization_transition_refused';
  constructor(tokenizationToken: string, action: string, status: string) {
    super(`Tokenization ${tokenizationToken} is ${status} and cannot be ${action}`, 'tokenization_token');
  }
}

/** A card other than DIGITAL_WALLET asked to be provisioned: the spec gives that type alone to wallets. */
export class CardNotProvisionable extends Conflict {
  static override readonly code = 'card_not_provisionable';
  constructor(cardToken: string, reason: string) {
    super(`Card ${cardToken} cannot be provisioned to a digital wallet: ${reason}`, 'card_token');
  }
}
