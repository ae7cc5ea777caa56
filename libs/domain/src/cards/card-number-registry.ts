import type { Decider } from '../core/decider';
import { Conflict } from '../core/domain-error';

/**
 * The card-number registry: one tiny stream per keyed PAN hash, created with "no stream expected".
 * The event store's expected-version check makes a card number unique without a read model, and the
 * same stream is how a card is found by its number.
 */
export const cardNumberStreamId = (panHash: string): string => `cardnumber-${panHash}`;

export interface CardNumberAssigned {
  readonly type: 'CardNumberAssigned';
  readonly data: { readonly panHash: string; readonly cardToken: string; readonly programToken: string };
}

export interface AssignCardNumber {
  readonly type: 'AssignCardNumber';
  readonly panHash: string;
  readonly cardToken: string;
  readonly programToken: string;
}

export type CardNumberRegistration = { readonly status: 'free' } | { readonly status: 'assigned'; readonly cardToken: string };

/** The drawn number is another card's: the caller draws again. */
export class CardNumberTaken extends Conflict {
  static override readonly code = 'card_number_taken';
  constructor() {
    super('The card number drawn is already assigned');
  }
}

export const cardNumberRegistryDecider: Decider<AssignCardNumber, CardNumberAssigned, CardNumberRegistration> = {
  initialState: () => ({ status: 'free' }),
  decide: (command, registration) => {
    if (registration.status === 'assigned') throw new CardNumberTaken();
    return [{ type: 'CardNumberAssigned', data: { panHash: command.panHash, cardToken: command.cardToken, programToken: command.programToken } }];
  },
  evolve: (_registration, event) => ({ status: 'assigned', cardToken: event.data.cardToken }),
};
