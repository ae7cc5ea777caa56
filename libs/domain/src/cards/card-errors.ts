import { Conflict, InvalidInput, NotFound } from '../core/domain-error';

export class CardNotFound extends NotFound {
  static override readonly code = 'card_not_found';
  constructor(readonly cardToken: string) {
    super(`Card ${cardToken} not found`, 'card_token');
  }
}

export class CardAlreadyExists extends Conflict {
  static override readonly code = 'card_already_exists';
  constructor(readonly cardToken: string) {
    super(`Card ${cardToken} already exists`);
  }
}

export class CardIsClosed extends Conflict {
  static override readonly code = 'card_is_closed';
  constructor(readonly cardToken: string) {
    super(`Card ${cardToken} is CLOSED; a closed card cannot be changed`, 'state');
  }
}

export class CardStateNotAllowed extends InvalidInput {
  static override readonly code = 'card_state_not_allowed';
  constructor(state: string, allowed: readonly string[], field = 'state') {
    super(`state must be one of ${allowed.join(', ')}; got ${state}`, field);
  }
}

export class ExpiryInThePast extends InvalidInput {
  static override readonly code = 'expiry_in_the_past';
  constructor(month: string, year: string) {
    super(`exp_month/exp_year ${month}/${year} is in the past`, 'exp_year');
  }
}
