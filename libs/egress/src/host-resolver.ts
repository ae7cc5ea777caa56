import { lookup } from 'node:dns/promises';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * The port through which names become addresses, so tests can answer as a rebinding DNS server would.
 * Every address a name resolves to is checked, at set time and again at each connection.
 */
export interface HostResolver {
  resolve(host: string): Promise<readonly ResolvedAddress[]>;
}

/** The system resolver, as a socket would use it: getaddrinfo, every address, in its order. */
export const systemHostResolver: HostResolver = {
  async resolve(host) {
    const addresses = await lookup(host, { all: true, verbatim: true });
    return addresses.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  },
};
