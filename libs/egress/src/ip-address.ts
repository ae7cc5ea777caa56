import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** Digits, hex letters, `x`, dots and colons: the characters of every numeric host spelling. */
const NUMERIC_HOST = /^[0-9a-fx.:]+$/i;

/**
 * Reads an IP address in any spelling a URL, a resolver or an operator may write: dotted quad,
 * one decimal, hex or octal number (`2130706433`, `0x7f000001`, `017700000001`), octal or hex parts
 * (`0177.0.0.1`), short forms (`127.1`, `0x7f.1`), IPv6 with or without brackets, zone ids, embedded
 * dotted quads (`::ffff:127.0.0.1`, `::127.0.0.1`). Answers null for a name.
 *
 * IPv4 spellings are read by the WHATWG host parser (what `new URL` does to a host, written to agree
 * with the inet_aton that getaddrinfo uses), never by ipaddr.js 1.x, which misreads some of them
 * (`0X7F000001` and `09` as 0.0.0.0, `08.1.1.1` as 0.1.1.1). IPv6 is read by ipaddr.js (which keeps
 * zone ids), else by the WHATWG parser too. ipaddr.js then does the arithmetic on the canonical form.
 */
export function parseIpAddress(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (bare.includes(':') && ipaddr.IPv6.isValid(bare)) return ipaddr.IPv6.parse(bare);
  if (!NUMERIC_HOST.test(bare)) return null;
  const canonical = whatwgHost(bare);
  if (canonical === null) return null;
  if (canonical.startsWith('[')) return ipaddr.IPv6.parse(canonical.slice(1, -1));
  return ipaddr.IPv4.isValidFourPartDecimal(canonical) ? ipaddr.IPv4.parse(canonical) : null;
}

function whatwgHost(host: string): string | null {
  try {
    return new URL(`http://${host.includes(':') ? `[${host}]` : host}/`).hostname;
  } catch {
    return null;
  }
}

/** The canonical text of an address: dotted quad, or compressed IPv6 without brackets or zone. */
export function canonicalText(address: IpAddress): string {
  return address.kind() === 'ipv6' ? new ipaddr.IPv6((address as ipaddr.IPv6).parts).toString() : address.toString();
}

/** A CIDR range; a single address is one of full length. */
export interface IpRange {
  readonly network: IpAddress;
  readonly prefix: number;
}

export function parseRange(cidr: string): IpRange {
  const [network, prefix] = ipaddr.parseCIDR(cidr);
  return { network, prefix };
}

export function fullLength(address: IpAddress): number {
  return address.kind() === 'ipv4' ? 32 : 128;
}

export function inRange(address: IpAddress, range: IpRange): boolean {
  if (address.kind() !== range.network.kind()) return false;
  return address.kind() === 'ipv4'
    ? (address as ipaddr.IPv4).match(range.network as ipaddr.IPv4, range.prefix)
    : (address as ipaddr.IPv6).match(range.network as ipaddr.IPv6, range.prefix);
}

/**
 * The IPv4 address an IPv6 one carries and that a connection to it really reaches: IPv4-mapped
 * (`::ffff:0:0/96`, the kernel connects over IPv4), NAT64 (`64:ff9b::/96`, the translator connects),
 * 6to4 (`2002::/16`, the relay connects) and the deprecated IPv4-compatible form (`::/96`). Null for
 * any other address.
 */
export function embeddedIpv4(address: IpAddress): ipaddr.IPv4 | null {
  if (address.kind() !== 'ipv6') return null;
  const parts = (address as ipaddr.IPv6).parts;
  const bytes = (address as ipaddr.IPv6).toByteArray();
  const zeros = (from: number, to: number) => parts.slice(from, to).every((part) => part === 0);
  if (zeros(0, 5) && parts[5] === 0xffff) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (zeros(0, 6) && !(parts[6] === 0 && parts[7] <= 1)) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (parts[0] === 0x64 && parts[1] === 0xff9b && zeros(2, 6)) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (parts[0] === 0x2002) return new ipaddr.IPv4(bytes.slice(2, 6));
  return null;
}
