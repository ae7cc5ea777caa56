import { shippingOf, type PlasticOrderRequest } from '@ledger/contracts';
import type { Shipping } from '@ledger/domain';
import { RequestInvalid } from '../http/errors';

/**
 * The plastic a request orders, or undefined when it names no address. A shipping method or product
 * without an address would be dropped unseen, so it is refused instead.
 */
export function plasticOrderOf(body: PlasticOrderRequest): Shipping | undefined {
  if (body.shipping_address === undefined && (body.shipping_method !== undefined || body.product_id !== undefined)) {
    throw new RequestInvalid('shipping_method and product_id are given with a shipping_address');
  }
  return shippingOf(body);
}
