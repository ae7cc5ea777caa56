/** An answer of the resolver: egress's ResolvedAddress, by shape (test-support depends on no lib, so egress's specs can use it). */
interface ScriptedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** A HostResolver of egress, by shape. */
export interface ScriptedResolver {
  resolve(host: string): Promise<ScriptedAddress[]>;
  /** Every name asked, in order. */
  readonly calls: string[];
}

/**
 * A resolver that answers as a DNS server under test control would: each name's answers in turn, one
 * per lookup, the last one repeated. So `{ 'rebind.test': [['93.184.216.34'], ['127.0.0.1']] }` is a
 * rebinding server: a public address for the first lookup, loopback for every later one. Names not
 * in the script do not resolve (ENOTFOUND).
 */
export function scriptedResolver(script: Record<string, readonly (readonly string[])[]>): ScriptedResolver {
  const calls: string[] = [];
  return {
    calls,
    async resolve(host: string): Promise<ScriptedAddress[]> {
      calls.push(host);
      const answers = script[host];
      if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      const asked = calls.filter((call) => call === host).length;
      return answers[Math.min(asked, answers.length) - 1].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  };
}
