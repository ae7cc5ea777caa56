import { AddressClass, classifyAddress } from './address-class';
import { isMetadataName } from './host-name';

/**
 * Every forbidden range, each in many spellings: the ones a URL, getaddrinfo or an operator may
 * write (decimal, hex, octal, short forms, brackets, zone ids) and the IPv6 forms that carry an IPv4
 * address a connection really reaches (mapped in both notations, compatible, NAT64, 6to4).
 */
const SPELLINGS: Record<Exclude<AddressClass, 'public'>, string[]> = {
  loopback: [
    '127.0.0.1',
    '127.1',
    '127.0.1',
    '127.0.0.1.',
    '2130706433',
    '0x7f000001',
    '0X7F000001',
    '017700000001',
    '0177.0.0.1',
    '0177.0.0.01',
    '0x7f.0.0.1',
    '0x7f.1',
    '127.000.000.001',
    '127.255.255.254',
    '127.10.20.30',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '[::ffff:127.0.0.1]',
    '0:0:0:0:0:ffff:7f00:1',
    '::127.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::127.0.0.1',
    '2002:7f00:1::',
    '2002:7f00:0001:1234::1',
  ],
  private: [
    '10.0.0.1',
    '10.255.255.255',
    '167772161',
    '0xa000001',
    '0X0A000001',
    '012.0.0.1',
    '10.1',
    '172.16.0.1',
    '172.31.255.255',
    '0xac100001',
    '192.168.1.1',
    '192.168.0.0',
    '3232235777',
    '0xc0a80101',
    '0300.0250.1.1',
    '100.64.0.1',
    '100.127.255.254',
    '::ffff:10.0.0.1',
    '::ffff:a00:1',
    '::ffff:192.168.0.1',
    '64:ff9b::a00:1',
    '2002:c0a8:101::',
  ],
  link_local: ['169.254.0.1', '169.254.1.1', '169.254.255.255', '0xa9fe0101', '169.254.257', 'fe80::1', 'fe80::1%eth0', 'febf:ffff::1', '::ffff:169.254.1.1'],
  unique_local: ['fc00::1', 'fd12:3456:789a::1', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '[fd00::1]'],
  multicast: ['224.0.0.1', '239.255.255.250', '0xe0000001', 'ff02::1', 'ff05::1:3', '::ffff:224.0.0.1'],
  unspecified: ['0.0.0.0', '0', '0x0', '0.1.2.3', '::', '0:0:0:0:0:0:0:0', '::ffff:0.0.0.0'],
  broadcast: ['255.255.255.255', '4294967295', '0xffffffff', '0377.0377.0377.0377', '::ffff:255.255.255.255'],
  metadata: [
    '169.254.169.254',
    '2852039166',
    '0xa9fea9fe',
    '0251.0376.0251.0376',
    '169.254.43518',
    '0xa9.0xfe.0xa9.0xfe',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '[::ffff:a9fe:a9fe]',
    '64:ff9b::a9fe:a9fe',
    'fd00:ec2::254',
    '[fd00:ec2::254]',
    '168.63.129.16',
    '100.100.100.200',
  ],
  reserved: ['192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '192.0.0.8', '240.0.0.1', '2001:db8::1', '2001::1', 'fec0::1', '100::1', '::8.8.8.8'],
};

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '134744072',
  '0x8080808',
  '172.15.255.255',
  '172.32.0.1',
  '100.63.255.255',
  '100.128.0.1',
  '169.255.0.1',
  '11.0.0.1',
  '192.169.0.1',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '[2001:4860:4860::8888]',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

describe('classifyAddress', () => {
  const cases = Object.entries(SPELLINGS).flatMap(([addressClass, spellings]) => spellings.map((spelling) => [spelling, addressClass] as const));

  it.each(cases)('%s is %s', (spelling, addressClass) => {
    expect(classifyAddress(spelling)).toBe(addressClass);
  });

  it.each(PUBLIC)('%s is public', (spelling) => {
    expect(classifyAddress(spelling)).toBe('public');
  });

  it.each(['example.com', 'localhost', 'metadata.google.internal', '1.2.3.4.example.com', 'deadbeef', 'cafe.face', '0x7f.example', 'abc:def', '08.1.1.1', '09', ''])('%j is not an address', (name) => {
    expect(classifyAddress(name)).toBeNull();
  });
});

describe('isMetadataName', () => {
  it.each(['metadata', 'METADATA', 'metadata.google.internal', 'Metadata.Google.Internal.', 'metadata.goog', 'instance-data', 'db.corp.internal', 'x.ec2.internal'])('%s is a metadata name', (name) => {
    expect(isMetadataName(name)).toBe(true);
  });

  it.each(['example.com', 'metadata.example.com', 'internal.example.com', 'internalhost', 'localhost'])('%s is not', (name) => {
    expect(isMetadataName(name)).toBe(false);
  });
});
