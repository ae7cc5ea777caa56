import { embeddedIpv4, inRange, IpAddress, IpRange, parseIpAddress, parseRange } from './ip-address';

/**
 * What an address is, as far as outbound calls care. Only `public` is reachable without an
 * allowlist entry; every other class is refused by default.
 */
export const ADDRESS_CLASSES = [
  'public',
  'loopback',
  'private',
  'link_local',
  'unique_local',
  'multicast',
  'unspecified',
  'broadcast',
  'metadata',
  'reserved',
] as const;
export type AddressClass = (typeof ADDRESS_CLASSES)[number];

type RangeTable = readonly (readonly [AddressClass, IpRange])[];

const table = (entries: [AddressClass, string[]][]): RangeTable =>
  entries.flatMap(([addressClass, cidrs]) => cidrs.map((cidr) => [addressClass, parseRange(cidr)] as const));

/**
 * First match wins, so the cloud metadata addresses come before the ranges that hold them. Besides the
 * AWS/GCP/Azure/OpenStack address (169.254.169.254) and AWS's IPv6 one, Azure's WireServer
 * (168.63.129.16, a public address every Azure VM reaches) and Alibaba's (100.100.100.200).
 */
const IPV4_RANGES = table([
  ['metadata', ['169.254.169.254/32', '168.63.129.16/32', '100.100.100.200/32']],
  ['unspecified', ['0.0.0.0/8']],
  ['loopback', ['127.0.0.0/8']],
  // RFC 1918 and the carrier-grade NAT range (RFC 6598): both are somebody's internal network.
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10']],
  ['link_local', ['169.254.0.0/16']],
  ['multicast', ['224.0.0.0/4']],
  ['broadcast', ['255.255.255.255/32']],
  // IETF protocol assignments, documentation, benchmarking, the old 6to4 relay anycast, class E.
  ['reserved', ['192.0.0.0/24', '192.0.2.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '192.88.99.0/24', '240.0.0.0/4']],
]);

const IPV6_RANGES = table([
  ['metadata', ['fd00:ec2::254/128']],
  ['unspecified', ['::/128']],
  ['loopback', ['::1/128']],
  ['unique_local', ['fc00::/7']],
  ['link_local', ['fe80::/10']],
  ['multicast', ['ff00::/8']],
  // Teredo hides the IPv4 address it reaches; documentation, benchmarking and ORCHID are not routed.
  ['reserved', ['2001::/32', '2001:db8::/32', '2001:2::/48', '2001:10::/28', '2001:20::/28', '3fff::/20']],
]);

/** Global unicast IPv6 is 2000::/3; anything else not named above (site-local, discard, ...) is reserved. */
const IPV6_GLOBAL_UNICAST = parseRange('2000::/3');

const classIn = (address: IpAddress, ranges: RangeTable): AddressClass | undefined => ranges.find(([, range]) => inRange(address, range))?.[0];

/**
 * The class of the address a socket would really connect to. IPv6 that carries an IPv4 address
 * (mapped, NAT64, 6to4, compatible) has the class of that IPv4 address, so `::ffff:127.0.0.1` and
 * `::ffff:7f00:1` are loopback; the compatible form of a public IPv4 address is not routed and is
 * reserved.
 */
export function classOf(address: IpAddress): AddressClass {
  if (address.kind() === 'ipv4') return classIn(address, IPV4_RANGES) ?? 'public';
  const named = classIn(address, IPV6_RANGES);
  if (named) return named;
  const carried = embeddedIpv4(address);
  if (carried) {
    const carriedClass = classOf(carried);
    const compatible = address.toByteArray().slice(0, 12).every((byte) => byte === 0);
    return carriedClass === 'public' && compatible ? 'reserved' : carriedClass;
  }
  return inRange(address, IPV6_GLOBAL_UNICAST) ? 'public' : 'reserved';
}

/** The class of an address in any spelling; null when the text is not an IP address (a name). */
export function classifyAddress(text: string): AddressClass | null {
  const address = parseIpAddress(text);
  return address ? classOf(address) : null;
}
