import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { deriveKey } from './key-derivation';

/** A sealed message that this key cannot open: another key sealed it, or it was altered. */
export class MessageUnsealable extends Error {
  constructor(reason: string) {
    super(`The message could not be opened: ${reason}`);
    this.name = 'MessageUnsealable';
  }
}

/**
 * Seals messages that travel between processes (AES-256-GCM, a random IV each), under a key derived
 * from the card data key that every process of a deployment already shares. The `context` is
 * authenticated with the message (associated data): a message sealed for one context does not open
 * in another. Format: `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url; the key id only says which
 * key sealed it, so a process with another key can tell that apart from tampering.
 */
export class MessageSeal {
  private readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('A message seal key must be 32 bytes');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  /** The seal for one purpose (`command-transport`, ...) of the card data key. */
  static derivedFrom(cardDataKey: Buffer, purpose: string): MessageSeal {
    return new MessageSeal(deriveKey(cardDataKey, `message-seal/${purpose}`));
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }

  open(sealed: string, context: string): string {
    const [version, keyId, iv, tag, body, ...rest] = sealed.split('.');
    if (version !== 'v1' || rest.length > 0 || body === undefined) throw new MessageUnsealable('not a sealed message');
    if (keyId !== this.keyId) throw new MessageUnsealable(`sealed under another key (${keyId}, this process has ${this.keyId}): every process must share CARD_DATA_KEY`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new MessageUnsealable('altered, or sealed for another context');
    }
  }
}
