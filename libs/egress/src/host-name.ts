/**
 * Names of cloud metadata services, refused whatever they resolve to: on a cloud host they reach the
 * instance's credentials, and a resolver we do not control (a container's, a VPC's) may answer them
 * with an address that looks harmless. `.internal` is the private-use top-level domain ICANN reserved
 * in 2024, and the one GCP (`*.c.<project>.internal`) and AWS (`*.ec2.internal`,
 * `*.compute.internal`) name their instances in: never a public receiver.
 */
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);
const INTERNAL_SUFFIX = '.internal';

/** Lower case, without the trailing dot of a fully qualified name, IPv6 without brackets. */
export function normalizedHost(host: string): string {
  const lower = host.toLowerCase();
  const unbracketed = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return unbracketed.endsWith('.') ? unbracketed.slice(0, -1) : unbracketed;
}

/** Whether a host name is one of a metadata service's, or in `.internal`. */
export function isMetadataName(host: string): boolean {
  const name = normalizedHost(host);
  return METADATA_NAMES.has(name) || name.endsWith(INTERNAL_SUFFIX);
}
