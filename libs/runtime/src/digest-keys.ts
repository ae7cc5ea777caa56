import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DigestSigner, generateSigningKeyPem, parsePublicKey, parseSigningKey } from '@ledger/ledger-proof';
import type { LedgerConfig } from './config';
import { keptSecret } from './kept-secret';

export const KEPT_SIGNING_KEY_FILE = 'ledger-signing-key';
export const RETIRED_KEYS_FILE = 'ledger-verify-keys';

/** The key that signs audit digests, and every public key whose digests still verify (current first). */
export class DigestKeys {
  constructor(
    readonly signer: DigestSigner,
    readonly trusted: readonly Buffer[],
  ) {}

  /**
   * LEDGER_SIGNING_KEY, or on the embedded default a key made once and kept in the data folder (like
   * the card data key). Trusted besides the current key: LEDGER_VERIFY_KEYS, the public keys listed
   * one a line in `<dataDir>/ledger-verify-keys`, and a kept key that a configured one replaced, so
   * that rotating keys never orphans a digest an auditor saved.
   */
  static fromConfig(config: LedgerConfig): DigestKeys {
    const keptFile = path.join(config.dataDir, KEPT_SIGNING_KEY_FILE);
    const kept = readOptional(keptFile);
    const signingKey = config.ledgerSigningKey ?? keptSecret(config.dataDir, KEPT_SIGNING_KEY_FILE, generateSigningKeyPem).value;
    const signer = new DigestSigner(parseSigningKey(signingKey));
    const retired = [
      ...config.ledgerVerifyKeys,
      ...(readOptional(path.join(config.dataDir, RETIRED_KEYS_FILE)) ?? '').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#')),
    ].map(parsePublicKey);
    if (kept && config.ledgerSigningKey) retired.push(new DigestSigner(parseSigningKey(kept)).publicKey);
    const trusted = [signer.publicKey, ...retired.filter((key) => !key.equals(signer.publicKey))];
    return new DigestKeys(signer, trusted);
  }
}

/**
 * The public keys this installation's digests verify with, read without making a key: what an
 * offline `admin verify` trusts besides the keys given with --key. Empty on a machine that has none.
 */
export function trustedDigestKeys(config: LedgerConfig): Buffer[] {
  const kept = readOptional(path.join(config.dataDir, KEPT_SIGNING_KEY_FILE));
  const signing = [config.ledgerSigningKey, kept].filter((key): key is string => Boolean(key)).map((key) => new DigestSigner(parseSigningKey(key)).publicKey);
  const retired = [
    ...config.ledgerVerifyKeys,
    ...(readOptional(path.join(config.dataDir, RETIRED_KEYS_FILE)) ?? '').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#')),
  ].map(parsePublicKey);
  return [...signing, ...retired];
}

function readOptional(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
