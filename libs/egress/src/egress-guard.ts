import { Logger } from '@nestjs/common';
import { describeDestination, Destination, destinationOf } from './destination';
import { EgressFailure } from './egress-failure';
import { EgressPolicy, EgressVerdict } from './egress-policy';
import { HostResolver, ResolvedAddress, systemHostResolver } from './host-resolver';
import { parseIpAddress } from './ip-address';

/**
 * The egress policy applied with a resolver: once when a program registers an endpoint URL (set time)
 * and again for every connection (connect time), against the addresses the socket is given, so a name
 * that resolves elsewhere by then (DNS rebinding) gets no further.
 */
export class EgressGuard {
  private readonly logger = new Logger('Egress');

  constructor(
    readonly policy: EgressPolicy,
    private readonly resolver: HostResolver = systemHostResolver,
  ) {}

  /**
   * Set time: the URL's form, its host, and every address the host resolves to now. A name that does
   * not resolve now is let through: DNS may not be set up yet, and every connection is checked anyway.
   */
  async check(url: string): Promise<EgressVerdict> {
    const verdict = await this.verdictFor(url);
    if (!verdict.allowed) this.logger.log(`refused an endpoint URL: ${verdict.reason}`);
    return verdict;
  }

  private async verdictFor(url: string): Promise<EgressVerdict> {
    let destination: Destination;
    try {
      destination = destinationOf(url);
    } catch (error) {
      if (error instanceof EgressFailure) return { allowed: false, reason: error.detail };
      throw error;
    }
    const byHost = this.policy.checkHost(destination);
    if (!byHost.allowed || parseIpAddress(destination.host)) return byHost;
    let addresses: readonly ResolvedAddress[];
    try {
      addresses = await this.resolver.resolve(destination.host);
    } catch {
      return byHost;
    }
    return this.firstRefusal(destination, addresses) ?? byHost;
  }

  /**
   * Connect time: the addresses a socket for this destination may be given. A literal address is
   * checked as it is; a name is resolved now and refused as a whole if any of its addresses is
   * forbidden (a name that mixes public and internal answers is not one to trust).
   */
  async addressesFor(destination: Pick<Destination, 'host' | 'port'>): Promise<readonly ResolvedAddress[]> {
    const byHost = this.policy.checkHost(destination);
    if (!byHost.allowed) throw new EgressFailure('refused_by_egress_policy', `${describeDestination(destination)}: ${byHost.reason}`);
    const literal = parseIpAddress(destination.host);
    if (literal) return [{ address: destination.host, family: literal.kind() === 'ipv6' ? 6 : 4 }];
    let addresses: readonly ResolvedAddress[];
    try {
      addresses = await this.resolver.resolve(destination.host);
    } catch (error) {
      const failure = error as NodeJS.ErrnoException;
      throw new EgressFailure('connection_failed', `${describeDestination(destination)}: ${failure.code ?? 'lookup failed'} ${failure.message}`);
    }
    if (addresses.length === 0) throw new EgressFailure('connection_failed', `${describeDestination(destination)}: no address`);
    const refusal = this.firstRefusal(destination, addresses);
    if (refusal) throw new EgressFailure('refused_by_egress_policy', `${describeDestination(destination)}: ${refusal.reason}`);
    return addresses;
  }

  /** Connect time, once more: the address the socket did connect to. */
  checkConnected(destination: Pick<Destination, 'host' | 'port'>, remoteAddress: string | undefined): void {
    const verdict = remoteAddress === undefined ? { allowed: false as const, reason: 'no remote address' } : this.policy.checkAddress(destination, remoteAddress);
    if (!verdict.allowed) throw new EgressFailure('refused_by_egress_policy', `${describeDestination(destination)}: connected to ${verdict.reason}`);
  }

  private firstRefusal(destination: Pick<Destination, 'host' | 'port'>, addresses: readonly ResolvedAddress[]): Extract<EgressVerdict, { allowed: false }> | undefined {
    for (const { address } of addresses) {
      const verdict = this.policy.checkAddress(destination, address);
      if (!verdict.allowed) return { allowed: false, reason: `${destination.host} resolves to ${verdict.reason}` };
    }
    return undefined;
  }
}
