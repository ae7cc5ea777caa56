import { Logger } from '@nestjs/common';
import { scriptedResolver } from '@ledger/test-support';
import { AllowlistEntryInvalid, parseAllowlist } from './allowlist';
import { destinationOf } from './destination';
import { EgressFailure } from './egress-failure';
import { EgressGuard } from './egress-guard';
import { EgressPolicy, SANDBOX_EGRESS_ALLOWLIST } from './egress-policy';

// The guard logs every refusal; here that would only be noise.
beforeAll(() => Logger.overrideLogger(false));

const allowedAt = (policy: EgressPolicy, url: string, address?: string): boolean => {
  const destination = destinationOf(url);
  const byHost = policy.checkHost(destination);
  return byHost.allowed && (address === undefined || policy.checkAddress(destination, address).allowed);
};

/** The URLs the defect report found accepted, and more of the same class. */
const INTERNAL_URLS = [
  'http://127.0.0.1:5432/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::1]:5432/',
  'http://10.0.0.1/',
  'http://0x7f000001/',
  'http://metadata.google.internal/',
  'http://user:pass@127.0.0.1:6379/',
  'http://2130706433/',
  'http://127.1:6379/',
  'http://0177.0.0.1/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:a9fe:a9fe]/latest/meta-data/',
  'http://[fd00:ec2::254]/',
  'http://[fe80::1]/',
  'http://[fc00::1]/',
  'http://172.16.0.1/',
  'http://192.168.0.1/',
  'http://100.64.0.1/',
  'http://0.0.0.0:5432/',
  'http://[::]:5432/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
  'http://metadata/computeMetadata/v1/',
  'http://METADATA.GOOGLE.INTERNAL./',
  'http://db.corp.internal/',
  'https://user@hooks.example.com/',
  'https://:secret@hooks.example.com/',
  'ftp://hooks.example.com/',
  'file:///etc/passwd',
];

describe('the default policy (no allowlist)', () => {
  const policy = EgressPolicy.of([]);
  const guard = new EgressGuard(policy, scriptedResolver({}));

  it.each(INTERNAL_URLS)('refuses %s at set time', async (url) => {
    expect((await guard.check(url)).allowed).toBe(false);
  });

  it.each(['https://hooks.example.com/x', 'http://8.8.8.8/', 'https://[2606:4700:4700::1111]/', 'http://[::ffff:8.8.8.8]:8080/'])('allows %s', async (url) => {
    expect(await guard.check(url)).toEqual({ allowed: true });
  });

  it('names the refused class for the log', () => {
    expect(policy.checkAddress({ host: 'x.example', port: 80 }, '::ffff:7f00:1')).toEqual({ allowed: false, reason: '::ffff:7f00:1 is loopback' });
    expect(policy.checkHost({ host: 'metadata.google.internal', port: 80 })).toEqual({ allowed: false, reason: 'metadata.google.internal is a metadata name' });
  });
});

describe('the allowlist', () => {
  it('opens a host name, its addresses, and nothing else', () => {
    const policy = EgressPolicy.of(['hooks.corp.internal']);
    expect(allowedAt(policy, 'https://hooks.corp.internal/x', '10.1.2.3')).toBe(true);
    expect(allowedAt(policy, 'https://HOOKS.corp.internal.:8443/x', 'fd00::5')).toBe(true);
    expect(allowedAt(policy, 'https://other.corp.internal/x', '8.8.8.8')).toBe(false);
    expect(allowedAt(policy, 'https://other.example.com/x', '10.1.2.3')).toBe(false);
    expect(allowedAt(policy, 'http://10.1.2.3/')).toBe(false);
  });

  it('opens host:port on that port only', () => {
    const policy = EgressPolicy.of(['hooks.lan:8443', '10.1.2.3:8080', '[::1]:9000']);
    expect(allowedAt(policy, 'https://hooks.lan:8443/', '192.168.1.10')).toBe(true);
    expect(allowedAt(policy, 'https://hooks.lan/', '192.168.1.10')).toBe(false);
    expect(allowedAt(policy, 'http://10.1.2.3:8080/')).toBe(true);
    expect(allowedAt(policy, 'http://10.1.2.3:8081/')).toBe(false);
    expect(allowedAt(policy, 'http://10.1.2.3/')).toBe(false);
    expect(allowedAt(policy, 'http://[::1]:9000/')).toBe(true);
    expect(allowedAt(policy, 'http://[::1]:9001/')).toBe(false);
  });

  it('opens an address in any spelling, and a v4 or v6 CIDR range', () => {
    const policy = EgressPolicy.of(['10.1.2.3', '127.0.0.0/8', 'fd00::/8']);
    for (const url of ['http://10.1.2.3/', 'http://167838211/', 'http://[::ffff:a01:203]/', 'http://127.0.0.1:5432/', 'http://127.1/', 'http://0x7f000001:6379/', 'http://[::ffff:127.0.0.1]/', 'http://[fd12::1]/']) {
      expect({ url, allowed: allowedAt(policy, url) }).toEqual({ url, allowed: true });
    }
    for (const url of ['http://10.1.2.4/', 'http://[::1]/', 'http://[fc00::1]/', 'http://192.168.0.1/']) {
      expect({ url, allowed: allowedAt(policy, url) }).toEqual({ url, allowed: false });
    }
    expect(allowedAt(policy, 'http://name.example/', '127.0.0.1')).toBe(true);
  });

  it('opens a metadata address only by an entry of exactly that address', () => {
    for (const entries of [['169.254.0.0/16'], ['0.0.0.0/0'], ['::/0', '0.0.0.0/0'], ['trusted.example.com']]) {
      const policy = EgressPolicy.of(entries);
      expect({ entries, allowed: allowedAt(policy, 'http://trusted.example.com/', '169.254.169.254') }).toEqual({ entries, allowed: false });
      expect({ entries, allowed: allowedAt(policy, 'http://[::ffff:169.254.169.254]/') }).toEqual({ entries, allowed: false });
    }
    expect(allowedAt(EgressPolicy.of(['169.254.0.0/16']), 'http://169.254.10.10/')).toBe(true);
    expect(allowedAt(EgressPolicy.of(['169.254.169.254']), 'http://169.254.169.254/')).toBe(true);
    expect(allowedAt(EgressPolicy.of(['169.254.169.254/32']), 'http://169.254.169.254/')).toBe(true);
  });

  it('opens a metadata name only by naming it', () => {
    expect(allowedAt(EgressPolicy.of(['0.0.0.0/0']), 'http://metadata.google.internal/')).toBe(false);
    expect(allowedAt(EgressPolicy.of(['metadata.google.internal']), 'http://metadata.google.internal/')).toBe(true);
  });

  it('of the sandbox opens loopback only', () => {
    const policy = EgressPolicy.of(SANDBOX_EGRESS_ALLOWLIST);
    expect(['http://127.0.0.1:5432/', 'http://[::1]:5432/', 'http://127.1/', 'http://[::ffff:127.0.0.1]/'].every((url) => allowedAt(policy, url))).toBe(true);
    expect(['http://10.0.0.1/', 'http://169.254.169.254/', 'http://[fe80::1]/', 'http://0.0.0.0/'].some((url) => allowedAt(policy, url))).toBe(false);
    expect(policy.describe()).toBe('public addresses and 127.0.0.0/8, ::1');
  });

  it.each(['http://hooks.example.com', '10.0.0.0/33', 'fd00::/129', 'hooks.example.com:99999', 'hooks.example.com:', '10.0.0.1:0', 'a b', '[::1]:x', ',,bad host'])('refuses the entry %j', (entry) => {
    expect(() => parseAllowlist(entry)).toThrow(AllowlistEntryInvalid);
  });

  it('reads a comma-separated list, spaces and empty entries ignored', () => {
    expect(parseAllowlist(' 127.0.0.1 , hooks.lan:8443,, fd00::/8 ').map((entry) => entry.text)).toEqual(['127.0.0.1', 'hooks.lan:8443', 'fd00::/8']);
  });
});

describe('the guard', () => {
  it('refuses at set time a name any of whose addresses is forbidden, and lets through a name that does not resolve', async () => {
    const guard = new EgressGuard(EgressPolicy.of([]), scriptedResolver({ 'mixed.example': [['8.8.8.8', '10.0.0.1']], 'fine.example': [['8.8.8.8', '2606:4700::1']] }));
    expect(await guard.check('https://mixed.example/')).toEqual({ allowed: false, reason: 'mixed.example resolves to 10.0.0.1 is private' });
    expect(await guard.check('https://fine.example/')).toEqual({ allowed: true });
    expect(await guard.check('https://nowhere.example/')).toEqual({ allowed: true });
  });

  it('refuses at connect time what a rebinding name resolves to by then', async () => {
    const resolver = scriptedResolver({ 'rebind.example': [['93.184.216.34'], ['127.0.0.1']] });
    const guard = new EgressGuard(EgressPolicy.of([]), resolver);
    expect(await guard.check('http://rebind.example:5432/')).toEqual({ allowed: true });
    const refusal = await guard.addressesFor({ host: 'rebind.example', port: 5432 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(EgressFailure);
    expect(refusal).toMatchObject({ failure: 'refused_by_egress_policy', detail: 'rebind.example:5432: rebind.example resolves to 127.0.0.1 is loopback' });
    expect(resolver.calls).toEqual(['rebind.example', 'rebind.example']);
  });

  it('at connect time answers the allowed addresses, checks literals without resolving, and fails unresolvable names as connection failures', async () => {
    const resolver = scriptedResolver({ 'ok.example': [['8.8.8.8', '2001:4860:4860::8888']] });
    const guard = new EgressGuard(EgressPolicy.of([]), resolver);
    expect(await guard.addressesFor({ host: 'ok.example', port: 443 })).toEqual([
      { address: '8.8.8.8', family: 4 },
      { address: '2001:4860:4860::8888', family: 6 },
    ]);
    await expect(guard.addressesFor({ host: '10.0.0.1', port: 80 })).rejects.toMatchObject({ failure: 'refused_by_egress_policy' });
    await expect(guard.addressesFor({ host: 'metadata.google.internal', port: 80 })).rejects.toMatchObject({ failure: 'refused_by_egress_policy' });
    await expect(guard.addressesFor({ host: 'gone.example', port: 80 })).rejects.toMatchObject({ failure: 'connection_failed' });
    expect(resolver.calls).toEqual(['ok.example', 'gone.example']);
    expect(() => guard.checkConnected({ host: 'ok.example', port: 443 }, '::ffff:127.0.0.1')).toThrow(EgressFailure);
    expect(() => guard.checkConnected({ host: 'ok.example', port: 443 }, '8.8.8.8')).not.toThrow();
  });
});
