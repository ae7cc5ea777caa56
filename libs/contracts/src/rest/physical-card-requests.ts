import { SHIPPING_METHODS, type Shipping, type ShippingMethod } from '@ledger/domain';
import { TokenField } from './token-field';
import { ExpiryMonthField, ExpiryYearField, NestedField, OneOfField, PatternField, TextField } from './value-fields';

const MAX_ADDRESS_FIELD_LENGTH = 255;
const MAX_PRODUCT_ID_LENGTH = 64;

/**
 * Lithic's ShippingAddress. Each field's presence and form is checked here; the rules between fields
 * (country codes, ZIPs, printed names, EXPEDITED contacts) are the domain's (shipping.ts).
 */
export class ShippingAddressRequest {
  @TextField(MAX_ADDRESS_FIELD_LENGTH, { notEmpty: 'shipping_address.first_name must not be empty' })
  first_name!: string;

  @TextField(MAX_ADDRESS_FIELD_LENGTH, { notEmpty: 'shipping_address.last_name must not be empty' })
  last_name!: string;

  @TextField(MAX_ADDRESS_FIELD_LENGTH, { notEmpty: 'shipping_address.address1 must not be empty' })
  address1!: string;

  @TextField(MAX_ADDRESS_FIELD_LENGTH, { optional: true })
  address2?: string;

  @TextField(MAX_ADDRESS_FIELD_LENGTH, { notEmpty: 'shipping_address.city must not be empty' })
  city!: string;

  @TextField(MAX_ADDRESS_FIELD_LENGTH, { notEmpty: 'shipping_address.state must not be empty' })
  state!: string;

  @TextField(MAX_ADDRESS_FIELD_LENGTH, { notEmpty: 'shipping_address.postal_code must not be empty' })
  postal_code!: string;

  @TextField(MAX_ADDRESS_FIELD_LENGTH, { notEmpty: 'shipping_address.country must not be empty', description: 'Uppercase ISO 3166-1 alpha-3' })
  country!: string;

  @PatternField(/^[^@\s]+@[^@\s]+$/, 'shipping_address.email must be an email address', { optional: true, description: 'Required for EXPEDITED shipping' })
  email?: string;

  @PatternField(/^\+[1-9]\d{1,14}$/, 'shipping_address.phone_number must be in E.164 form (+15555550100)', { optional: true, description: 'E.164; required for EXPEDITED shipping' })
  phone_number?: string;

  @TextField(MAX_ADDRESS_FIELD_LENGTH, { optional: true })
  line2_text?: string;
}

/** Where and how a plastic is sent, as every request that orders one names it. */
export class PlasticOrderRequest {
  @NestedField(() => ShippingAddressRequest, { optional: true })
  shipping_address?: ShippingAddressRequest;

  @OneOfField(SHIPPING_METHODS, { optional: true, default: 'STANDARD' })
  shipping_method?: ShippingMethod;

  @TextField(MAX_PRODUCT_ID_LENGTH, { optional: true, description: 'The card art the plastic is made with' })
  product_id?: string;
}

/** POST /v1/cards/{card_token}/renew. */
export class RenewCardRequest extends PlasticOrderRequest {
  @ExpiryMonthField({ optional: true, description: 'With exp_year; generated (3 years ahead) when both are absent' })
  exp_month?: string;

  @ExpiryYearField({ optional: true, description: 'With exp_month' })
  exp_year?: string;
}

/** POST /v1/cards/{card_token}/reissue: without an address, the plastic goes where the last one went. */
export class ReissueCardRequest extends PlasticOrderRequest {}

/** POST /v1/cards/{card_token}/convert_physical. */
export class ConvertPhysicalRequest extends PlasticOrderRequest {}

/** POST /v1/simulate/cards/{card_token}/ship (sandbox). */
export class SimulateCardShipmentRequest {
  @TextField(64, { optional: true, description: 'The carrier\'s tracking number; none when absent' })
  tracking_number?: string;
}

export class CardProgramTokenParam {
  @TokenField()
  card_program_token!: string;
}

/** The order a request names, in the domain's terms; undefined when it names no address. */
export function shippingOf(request: PlasticOrderRequest): Shipping | undefined {
  const address = request.shipping_address;
  if (!address) return undefined;
  return {
    address: {
      firstName: address.first_name,
      lastName: address.last_name,
      address1: address.address1,
      ...(address.address2 !== undefined ? { address2: address.address2 } : {}),
      city: address.city,
      state: address.state,
      postalCode: address.postal_code,
      country: address.country,
      ...(address.email !== undefined ? { email: address.email } : {}),
      ...(address.phone_number !== undefined ? { phoneNumber: address.phone_number } : {}),
      ...(address.line2_text !== undefined ? { line2Text: address.line2_text } : {}),
    },
    method: request.shipping_method ?? 'STANDARD',
    productId: request.product_id ?? null,
  };
}
