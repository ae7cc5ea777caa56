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
