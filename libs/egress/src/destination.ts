import { EgressFailure } from './egress-failure';
import { normalizedHost } from './host-name';

/** Where an outbound call goes: the URL's scheme, host (normalised) and port (the scheme's default if none). */
export interface Destination {
  readonly url: URL;
  readonly protocol: 'http:' | 'https:';
  readonly host: string;
  readonly port: number;
}

const DEFAULT_PORTS = { 'http:': 80, 'https:': 443 } as const;

/**
 * The destination of a URL an outbound call is about to use. Only http and https, and never
 * credentials: `user:pass@` would be sent to whoever answers. Endpoint URLs are refused with these at
 * set time by the domain; this check is for every call, whatever was stored before.
 */
export function destinationOf(url: string): Destination {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EgressFailure('refused_by_egress_policy', 'not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new EgressFailure('refused_by_egress_policy', `scheme ${parsed.protocol} is not http or https`);
  if (parsed.username !== '' || parsed.password !== '') throw new EgressFailure('refused_by_egress_policy', 'the URL carries credentials');
  if (parsed.hostname === '') throw new EgressFailure('refused_by_egress_policy', 'the URL has no host');
  return {
    url: parsed,
    protocol: parsed.protocol,
    host: normalizedHost(parsed.hostname),
    port: parsed.port === '' ? DEFAULT_PORTS[parsed.protocol] : Number(parsed.port),
  };
}

/** host:port as a log line shows it. */
export function describeDestination(destination: Pick<Destination, 'host' | 'port'>): string {
  return destination.host.includes(':') ? `[${destination.host}]:${destination.port}` : `${destination.host}:${destination.port}`;
}
