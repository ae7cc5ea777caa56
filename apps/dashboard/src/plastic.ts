/** An event of a card's stream as `GET /v1/cards/{token}/events` serves it (only what is read here). */
export interface CardStreamEvent {
  readonly type: string;
  readonly data: Record<string, any>;
}

/** The card's latest plastic: where and how it goes, and whether it has shipped. */
export interface Plastic {
  readonly address: Record<string, string | undefined>;
  readonly method: string;
  readonly shipped: boolean;
  readonly trackingNumber: string | null;
}

/**
 * The latest plastic ordered for a card, read from its events: each order (creation, renewal,
 * reissue, conversion) carries `shipping`, and a `CardShipped` after it sends that plastic. Null for
 * a card that never had one. The card object has no shipping fields (Lithic's has none either).
 */
export function plasticOf(events: readonly CardStreamEvent[]): Plastic | null {
  return events.reduce<Plastic | null>((plastic, event) => {
    const shipping = event.data?.shipping;
    if (shipping) return { address: shipping.address ?? {}, method: shipping.method, shipped: false, trackingNumber: null };
    if (event.type === 'CardShipped' && plastic) return { ...plastic, shipped: true, trackingNumber: event.data.trackingNumber ?? null };
    return plastic;
  }, null);
}

/** An address on one line, as an envelope is read: names, street, city, state, code, country. */
export function addressLine(address: Plastic['address']): string {
  const name = [address.firstName, address.lastName].filter(Boolean).join(' ');
  const place = [address.city, [address.state, address.postalCode].filter(Boolean).join(' '), address.country].filter(Boolean).join(', ');
  return [name, address.address1, address.address2, place].filter(Boolean).join(', ');
}
