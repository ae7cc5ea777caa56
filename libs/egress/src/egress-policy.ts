import { AddressClass, classOf } from './address-class';
import { EgressAllowlist } from './allowlist';
import type { Destination } from './destination';
import { isMetadataName } from './host-name';
import { canonicalText, parseIpAddress } from './ip-address';

export type EgressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOWED: EgressVerdict = { allowed: true };
const refused = (reason: string): EgressVerdict => ({ allowed: false, reason });

/** Loopback only: users of the sandbox run their receivers on their own machine. */
export const SANDBOX_EGRESS_ALLOWLIST: readonly string[] = ['127.0.0.0/8', '::1'];

/**
 * Which destinations outbound calls (webhooks, the authorization stream) may reach: public addresses,
 * and what the operator's allowlist opens. Every other address class (loopback, private, link-local,
 * unique-local, multicast, unspecified, broadcast, reserved, cloud metadata) and every metadata name
 * is refused. Pure: resolving names is the guard's business.
 */
export class EgressPolicy {
  constructor(readonly allowlist: EgressAllowlist = new EgressAllowlist([])) {}

  static of(allowlist: readonly string[]): EgressPolicy {
    return new EgressPolicy(EgressAllowlist.of(allowlist));
  }

  /** What can be said before resolving: a literal address's class, a metadata name. */
  checkHost(destination: Pick<Destination, 'host' | 'port'>): EgressVerdict {
    if (parseIpAddress(destination.host)) return this.checkAddress(destination, destination.host);
    if (isMetadataName(destination.host) && !this.allowlist.opensName(destination.host, destination.port)) return refused(`${destination.host} is a metadata name`);
    return ALLOWED;
  }

  /** Whether a connection for this destination may go to this address (resolved from its host, or the host itself). */
  checkAddress(destination: Pick<Destination, 'host' | 'port'>, addressText: string): EgressVerdict {
    const address = parseIpAddress(addressText);
    if (!address) return refused(`${addressText} is not an IP address`);
    const addressClass: AddressClass = classOf(address);
    if (addressClass === 'public') return ALLOWED;
    if (addressClass !== 'metadata' && this.allowlist.opensName(destination.host, destination.port)) return ALLOWED;
    if (this.allowlist.opensAddress(address, addressClass, destination.port)) return ALLOWED;
    return refused(`${canonicalText(address)} is ${addressClass.replace('_', '-')}`);
  }

  /** For the start-up log. */
  describe(): string {
    return this.allowlist.entries.length === 0 ? 'public addresses only' : `public addresses and ${this.allowlist}`;
  }
}
