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
  constructor(state: string, allowed: readonly string[], field = 'state', message = `state must be one of ${allowed.join(', ')}; got ${state}`) {
    super(message, field);
  }
}

export class ShippingRequired extends InvalidInput {
  static override readonly code = 'shipping_required';
  constructor(what: string) {
    super(`shipping_address is required for ${what}`, 'shipping_address');
  }
}

export class ShippingNotApplicable extends InvalidInput {
  static override readonly code = 'shipping_not_applicable';
  constructor(cardType: string) {
    super(`shipping_address and shipping_method apply only to PHYSICAL cards; this card is ${cardType}`, 'shipping_address');
  }
}

/**
 * An operation Lithic offers for some card types only (renew, reissue, conversion). A card's type
 * can change (a conversion makes it PHYSICAL), so this is a conflict with the card as it is (409),
 * not a fault of the request.
 */
export class CardTypeNotAllowed extends Conflict {
  static override readonly code = 'card_type_not_allowed';
  constructor(operation: string, cardType: string, allowed: readonly string[]) {
    super(`${operation} applies to cards of type ${allowed.join(', ')}; this card is ${cardType}`, 'type');
  }
}

/** Lithic: a PHYSICAL card is replaced by a PHYSICAL card, a VIRTUAL by a VIRTUAL. */
export class ReplacementTypeMismatch extends InvalidInput {
  static override readonly code = 'replacement_type_mismatch';
  constructor(replacedType: string, cardType: string) {
    super(`a replacement for a ${replacedType} card must be ${replacedType}; got ${cardType}`, 'type');
  }
}

export class CardNotShipped extends Conflict {
  static override readonly code = 'card_not_shipped';
  constructor(readonly cardToken: string) {
    super(`Card ${cardToken} is PENDING_FULFILLMENT; it can be activated once its plastic has shipped`, 'state');
  }
}

export class CardNotActivated extends Conflict {
  static override readonly code = 'card_not_activated';
  constructor(readonly cardToken: string) {
    super(`Card ${cardToken} has not been activated; update its state to OPEN once the cardholder has it`, 'state');
  }
}

export class NoPlasticToShip extends Conflict {
  static override readonly code = 'no_plastic_to_ship';
  constructor(readonly cardToken: string) {
    super(`Card ${cardToken} has no plastic waiting to be shipped`);
  }
}

/** Lithic: a card can be reissued or renewed a total of 8 times. */
export class TooManyPlastics extends Conflict {
  static override readonly code = 'too_many_plastics';
  constructor(readonly cardToken: string, limit: number) {
    super(`Card ${cardToken} has been reissued or renewed ${limit} times, the most allowed`);
  }
}

export class CardMustBeOpen extends Conflict {
  static override readonly code = 'card_must_be_open';
  constructor(readonly cardToken: string, operation: string) {
    super(`Card ${cardToken} must be OPEN for ${operation}`, 'state');
  }
}

/** replacement_for named no card of the calling program (another program's card is reported the same). */
export class ReplacedCardNotFound extends InvalidInput {
  static override readonly code = 'replaced_card_not_found';
  constructor(readonly cardToken: string) {
    super(`replacement_for: card ${cardToken} not found`, 'replacement_for');
  }
}

export class ExpiryInThePast extends InvalidInput {
  static override readonly code = 'expiry_in_the_past';
  constructor(month: string, year: string) {
    super(`exp_month/exp_year ${month}/${year} is in the past`, 'exp_year');
  }
}
