import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt } from 'node:crypto';
import { cardNumberFrom, CardNumberSecrets } from '@ledger/domain';
import { deriveKey } from './key-derivation';

/**
 * Card secrets (design invariant 6). One 32-byte master key from configuration is split with HKDF
 * into a key that encrypts PANs (AES-256-GCM), a key that hashes them for lookup (HMAC-SHA256) and a
 * key that derives CVVs, so the PAN is only ever stored encrypted and the CVV never at all.
 */
export class CardVault {
  /** Seals new PANs. */
  private readonly encryptionKey: Buffer;
  /** Every key that may have sealed a stored PAN, by key id: the current one and retired ones. */
  private readonly decryptionKeys: ReadonlyMap<string, Buffer>;
  private readonly lookupKey: Buffer;
  private readonly cvvKey: Buffer;
  private readonly pinKey: Buffer;
  /** Names the encryption key inside each ciphertext, so keys can be rotated later. */
  readonly keyId: string;

  /**
   * `encryptionKeys` rotates PAN encryption on its own: the first seals new PANs, the rest only
   * open what they sealed. Without them the key is derived from the master key. The lookup, CVV
   * and PIN keys always come from the master key, because rotating them would change every card's
   * lookup hash and CVV.
   */
  constructor(
    masterKey: Buffer,
    /** The issuer prefix every card number starts with: the card program's PAN range. */
    readonly binPrefix = '424242',
    encryptionKeys: readonly Buffer[] = [],
  ) {
    if (masterKey.length !== 32) throw new Error('The card data key must be 32 bytes');
    if (encryptionKeys.some((key) => key.length !== 32)) throw new Error('Card encryption keys must be 32 bytes');
    const derived = deriveKey(masterKey, 'pan-encryption');
    this.encryptionKey = encryptionKeys[0] ?? derived;
    this.decryptionKeys = new Map([derived, ...encryptionKeys].map((key) => [keyIdOf(key), key]));
    this.lookupKey = deriveKey(masterKey, 'pan-lookup');
    this.cvvKey = deriveKey(masterKey, 'cvv');
    this.pinKey = deriveKey(masterKey, 'pin');
    this.keyId = keyIdOf(this.encryptionKey);
  }

  /** A fresh random card number with the issuer prefix and a valid Luhn digit. */
  newCardNumber(): string {
    const count = 15 - this.binPrefix.length;
    let digits = '';
    for (let i = 0; i < count; i++) digits += String(randomInt(10));
    return cardNumberFrom(this.binPrefix, digits);
  }

  protect(pan: string): CardNumberSecrets {
    return { lastFour: pan.slice(-4), panHash: this.lookupHash(pan), panEncrypted: this.encrypt(pan) };
  }

  lookupHash(pan: string): string {
    return createHmac('sha256', this.lookupKey).update(pan).digest('hex');
  }

  encrypt(pan: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    const body = Buffer.concat([cipher.update(pan, 'utf8'), cipher.final()]);
    return ['v1', this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  decrypt(sealed: string): string {
    const [version, keyId, iv, tag, body] = sealed.split('.');
    const key = version === 'v1' ? this.decryptionKeys.get(keyId) : undefined;
    if (!key) throw new Error(`PAN sealed with unknown key ${version}.${keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** PINs are kept only as a keyed hash bound to the card, so equal PINs on two cards differ. */
  pinHash(cardToken: string, pin: string): string {
    return createHmac('sha256', this.pinKey).update(`${cardToken}|${pin}`).digest('hex');
  }

  /** Issuers derive the CVV from PAN and expiry with a secret key; so do we, and never store it. */
  cvv(pan: string, expMonth: string, expYear: string): string {
    const mac = createHmac('sha256', this.cvvKey).update(`${pan}|${expMonth}|${expYear}`).digest();
    return String(mac.readUInt32BE(0) % 1000).padStart(3, '0');
  }
}

function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** Accepts the key as 64 hex characters or 44 base64 characters. */
export function parseCardDataKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('CARD_DATA_KEY must be 32 bytes, as 64 hex or 44 base64 characters');
  return key;
}
