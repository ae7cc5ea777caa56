import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, sign, verify } from 'node:crypto';

/**
 * A signed statement "the first tree_size events of the log, the last at `position`, have this
 * Merkle root". Ed25519 over the text of `digestSigningBytes`, so that it can be checked with any
 * Ed25519 library. Kept outside the database (by the auditor, or on Kafka), it is the anchor that a
 * database administrator cannot recompute.
 */
export interface SignedDigest {
  /** Number of events covered: the leaves 0..tree_size-1, in global-position order. */
  readonly tree_size: number;
  /** Global position of the last covered event ("commit/prepare"); null for the empty log. */
  readonly position: string | null;
  /** Merkle tree head, lower-case hex. */
  readonly root: string;
  /** UTC ISO 8601. */
  readonly signed_at: string;
  readonly key_id: string;
  /** The raw 32-byte Ed25519 public key, lower-case hex. */
  readonly public_key: string;
  /** Ed25519 signature of digestSigningBytes, lower-case hex. */
  readonly signature: string;
}

export type UnsignedDigest = Pick<SignedDigest, 'tree_size' | 'position' | 'root' | 'signed_at'>;

export const DIGEST_FORMAT = 'ledger-digest-v1';

/** The signed bytes: UTF-8 lines joined by "\n", no trailing newline; an empty log's position is "-". */
export function digestSigningBytes(digest: UnsignedDigest & { readonly key_id: string }): Buffer {
  return Buffer.from([DIGEST_FORMAT, String(digest.tree_size), digest.position ?? '-', digest.root, digest.signed_at, digest.key_id].join('\n'), 'utf8');
}

/** The raw Ed25519 public key (32 bytes), from the SubjectPublicKeyInfo DER's tail. */
export function rawPublicKey(key: KeyObject): Buffer {
  const der = key.export({ type: 'spki', format: 'der' });
  return der.subarray(der.length - 32);
}

/** First 16 hex digits of SHA-256 of the raw public key. */
export function keyIdOf(rawKey: Buffer): string {
  return createHash('sha256').update(rawKey).digest('hex').slice(0, 16);
}

/** A private key from PEM or base64 of the PKCS#8 DER; it must be Ed25519. */
export function parseSigningKey(text: string): KeyObject {
  const trimmed = text.trim();
  const key = trimmed.startsWith('-----BEGIN')
    ? createPrivateKey(trimmed)
    : createPrivateKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'pkcs8' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the ledger signing key must be Ed25519, not ${key.asymmetricKeyType}`);
  return key;
}

/** A fresh key, as PEM PKCS#8 (what the embedded default keeps under LEDGER_DATA_DIR). */
export function generateSigningKeyPem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
}

/** A public key from raw hex (32 bytes), PEM or base64 SPKI DER. */
export function parsePublicKey(text: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const key = trimmed.startsWith('-----BEGIN') ? createPublicKey(trimmed) : createPublicKey({ key: Buffer.from(trimmed, 'base64'), format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ledger verification key must be Ed25519, not ${key.asymmetricKeyType}`);
  return rawPublicKey(key);
}

export class DigestSigner {
  readonly publicKey: Buffer;
  readonly keyId: string;

  constructor(private readonly privateKey: KeyObject) {
    this.publicKey = rawPublicKey(createPublicKey(privateKey));
    this.keyId = keyIdOf(this.publicKey);
  }

  sign(digest: UnsignedDigest): SignedDigest {
    const withKey = { ...digest, key_id: this.keyId };
    const signature = sign(null, digestSigningBytes(withKey), this.privateKey).toString('hex');
    return { tree_size: digest.tree_size, position: digest.position, root: digest.root, signed_at: digest.signed_at, key_id: this.keyId, public_key: this.publicKey.toString('hex'), signature };
  }
}

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

function publicKeyObject(raw: Buffer): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: 'der', type: 'spki' });
}

export type DigestCheck = { readonly valid: true } | { readonly valid: false; readonly reason: string };

/**
 * Checks a digest's signature against the trusted public keys (raw, 32 bytes): the current key and
 * every retired one. The digest's own `public_key` is only a hint: it must be one of the trusted keys.
 */
export function verifyDigest(digest: SignedDigest, trustedKeys: readonly Buffer[]): DigestCheck {
  const key = trustedKeys.find((candidate) => keyIdOf(candidate) === digest.key_id);
  if (!key) return { valid: false, reason: `key ${digest.key_id} is not one of the trusted keys` };
  if (digest.public_key && digest.public_key !== key.toString('hex')) return { valid: false, reason: `the digest's public key does not match trusted key ${digest.key_id}` };
  if (!/^[0-9a-f]{64}$/.test(digest.root)) return { valid: false, reason: 'the root is not 64 lower-case hex digits' };
  let ok = false;
  try {
    ok = verify(null, digestSigningBytes(digest), publicKeyObject(key), Buffer.from(digest.signature, 'hex'));
  } catch {
    ok = false;
  }
  return ok ? { valid: true } : { valid: false, reason: 'the signature does not match the digest' };
}
