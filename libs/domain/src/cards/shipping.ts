import { InvalidInput } from '../core/domain-error';

/** Where a plastic is sent, as Lithic's ShippingAddress names it. */
export interface ShippingAddress {
  readonly firstName: string;
  readonly lastName: string;
  readonly address1: string;
  readonly address2?: string;
  readonly city: string;
  readonly state: string;
  readonly postalCode: string;
  readonly country: string;
  readonly email?: string;
  readonly phoneNumber?: string;
  readonly line2Text?: string;
}

/** Lithic's shipping methods; BULK needs a bulk order, which this service has not, so it is not offered. */
export const SHIPPING_METHODS = ['STANDARD', 'STANDARD_WITH_TRACKING', 'PRIORITY', 'EXPRESS', '2_DAY', 'EXPEDITED'] as const;
export type ShippingMethod = (typeof SHIPPING_METHODS)[number];
export const DEFAULT_SHIPPING_METHOD: ShippingMethod = 'STANDARD';

/** How a plastic is to be sent: recorded with every order of one (create, renew, reissue, conversion). */
export interface Shipping {
  readonly address: ShippingAddress;
  readonly method: ShippingMethod;
  /** Lithic's product_id: the configuration (card art) the plastic is made with; null when none was named. */
  readonly productId: string | null;
}

/** The names printed on the card: Lithic allows 25 characters for both together. */
export const MAX_PRINTED_NAME_LENGTH = 25;
const COUNTRY_CODE = /^[A-Z]{3}$/;
const US_POSTAL_CODE = /^\d{5}(-\d{4})?$/;
const STATE_CODE = /^[A-Z]{2}$/;
const MAX_FOREIGN_STATE_LENGTH = 24;

/**
 * Lithic's rules for a shipping address, beyond each field's presence (checked at the edge): an
 * ISO 3166-1 alpha-3 country, a US ZIP or ZIP+4, a two-letter state in the US and Canada (at most 24
 * characters elsewhere), printed names of at most 25 characters together, and an email and a phone
 * number for EXPEDITED shipping.
 */
export function checkedShipping(address: ShippingAddress, method: ShippingMethod, field = 'shipping_address'): void {
  if (!COUNTRY_CODE.test(address.country)) throw new InvalidInput(`${field}.country must be an uppercase ISO 3166-1 alpha-3 code; got ${address.country}`, `${field}.country`);
  if (address.country === 'USA' && !US_POSTAL_CODE.test(address.postalCode)) {
    throw new InvalidInput(`${field}.postal_code must be a five-digit ZIP or ZIP+4 (12345-1234) in the USA; got ${address.postalCode}`, `${field}.postal_code`);
  }
  if ((address.country === 'USA' || address.country === 'CAN') && !STATE_CODE.test(address.state)) {
    throw new InvalidInput(`${field}.state must be an uppercase two-letter code in ${address.country}; got ${address.state}`, `${field}.state`);
  }
  if (address.state.length > MAX_FOREIGN_STATE_LENGTH) throw new InvalidInput(`${field}.state must be at most ${MAX_FOREIGN_STATE_LENGTH} characters`, `${field}.state`);
  if (address.firstName.length + address.lastName.length > MAX_PRINTED_NAME_LENGTH) {
    throw new InvalidInput(`${field}.first_name and ${field}.last_name together must be at most ${MAX_PRINTED_NAME_LENGTH} characters`, `${field}.last_name`);
  }
  if (method === 'EXPEDITED' && (address.email === undefined || address.phoneNumber === undefined)) {
    throw new InvalidInput(`${field}.email and ${field}.phone_number are required for EXPEDITED shipping`, address.email === undefined ? `${field}.email` : `${field}.phone_number`);
  }
}
