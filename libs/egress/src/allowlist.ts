import type { AddressClass } from './address-class';
import { normalizedHost } from './host-name';
import { embeddedIpv4, fullLength, inRange, IpAddress, IpRange, parseIpAddress, parseRange } from './ip-address';

/** An operator's exception to the egress policy (EGRESS_ALLOWLIST), as written and as understood. */
export type AllowlistEntry =
  | { readonly kind: 'name'; readonly text: string; readonly name: string; readonly port: number | null }
  | { readonly kind: 'range'; readonly text: string; readonly range: IpRange; readonly port: number | null; readonly singleAddress: boolean };

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/i;

export class AllowlistEntryInvalid extends Error {
  constructor(text: string, why: string) {
    super(`EGRESS_ALLOWLIST entry "${text}" ${why}; entries are host names, IP addresses (either with :port, IPv6 as [addr]:port) and CIDR ranges`);
    this.name = 'AllowlistEntryInvalid';
  }
}

/**
 * One entry: `hooks.corp.example`, `hooks.corp.example:8443`, `10.1.2.3`, `10.1.2.3:8080`, `::1`,
 * `[::1]:8080`, `10.0.0.0/8`, `fd00::/8`. Addresses may be spelled any way {@link parseIpAddress}
 * reads. A range takes no port.
 */
export function parseAllowlistEntry(raw: string): AllowlistEntry {
  const text = raw.trim();
  if (text === '') throw new AllowlistEntryInvalid(raw, 'is empty');
  if (text.includes('/')) {
    try {
      const range = parseRange(text);
      return { kind: 'range', text, range, port: null, singleAddress: range.prefix === fullLength(range.network) };
    } catch {
      throw new AllowlistEntryInvalid(text, 'is not a CIDR range');
    }
  }
  const { host, port } = hostAndPort(text);
  const address = parseIpAddress(host);
  if (address) return { kind: 'range', text, range: { network: address, prefix: fullLength(address) }, port, singleAddress: true };
  if (!HOST_NAME.test(host)) throw new AllowlistEntryInvalid(text, 'is not a host name');
  return { kind: 'name', text, name: normalizedHost(host), port };
}

function hostAndPort(text: string): { host: string; port: number | null } {
  const bracketed = /^\[([^\]]+)\](?::([^:]*))?$/.exec(text);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] === undefined ? null : portOf(text, bracketed[2]) };
  const colons = text.split(':').length - 1;
  // More than one colon and no brackets: a bare IPv6 address, which cannot carry a port.
  if (colons !== 1) return { host: text, port: null };
  const [host, port] = text.split(':');
  return { host, port: portOf(text, port) };
}

function portOf(text: string, port: string): number {
  const value = Number(port);
  if (!/^\d{1,5}$/.test(port) || value < 1 || value > 65535) throw new AllowlistEntryInvalid(text, 'has no valid port');
  return value;
}

/** The entries, comma-separated, as EGRESS_ALLOWLIST gives them. */
export function parseAllowlist(text: string): AllowlistEntry[] {
  return text
    .split(',')
    .filter((entry) => entry.trim() !== '')
    .map(parseAllowlistEntry);
}

/**
 * What the operator opened. A name entry opens that name and the addresses it resolves to; an address
 * or range entry opens those addresses whatever name led to them. Cloud metadata addresses are the one
 * exception: only an entry of exactly that address opens one, so `0.0.0.0/0` or a trusted name that
 * starts resolving to 169.254.169.254 never does.
 */
export class EgressAllowlist {
  constructor(readonly entries: readonly AllowlistEntry[]) {}

  static of(entries: readonly string[]): EgressAllowlist {
    return new EgressAllowlist(entries.map(parseAllowlistEntry));
  }

  opensName(host: string, port: number): boolean {
    const name = normalizedHost(host);
    return this.entries.some((entry) => entry.kind === 'name' && entry.name === name && portMatches(entry.port, port));
  }

  opensAddress(address: IpAddress, addressClass: AddressClass, port: number): boolean {
    const carried = embeddedIpv4(address);
    return this.entries.some(
      (entry) =>
        entry.kind === 'range' &&
        portMatches(entry.port, port) &&
        (addressClass !== 'metadata' || entry.singleAddress) &&
        (inRange(address, entry.range) || (carried !== null && inRange(carried, entry.range))),
    );
  }

  toString(): string {
    return this.entries.map((entry) => entry.text).join(', ');
  }
}

const portMatches = (allowed: number | null, port: number): boolean => allowed === null || allowed === port;
