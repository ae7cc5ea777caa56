import { hkdfSync } from 'node:crypto';

/**
 * One 32-byte key per purpose from the card data key (HKDF-SHA256, info `card-ledger/<purpose>`),
 * so no two uses share a key and none of them needs its own setting.
 */
export function deriveKey(masterKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `card-ledger/${purpose}`, 32));
}
