import { Conflict, InvalidInput, NotFound } from '../core/domain-error';

export class CardNotFound extends NotFound {
  constructor(readonly cardToken: string) {
    super(`Card ${cardToken} not found`, 'card_token');
  }
}

export class CardAlreadyExists extends Conflict {
  constructor(readonly cardToken: string) {
    super(`Card ${cardToken} already exists`);
  }
}

export class CardIsClosed extends Conflict {
  constructor(readonly cardToken: string) {
    super(`Card ${cardToken} is CLOSED; a closed card cannot be changed`, 'state');
  }
}

export class CardStateNotAllowed extends InvalidInput {
  constructor(state: string, allowed: readonly string[], field = 'state') {
    super(`state must be one of ${allowed.join(', ')}; got ${state}`, field);
  }
}

export class ExpiryInThePast extends InvalidInput {
  constructor(month: string, year: string) {
    super(`exp_month/exp_year ${month}/${year} is in the past`, 'exp_year');
  }
}
