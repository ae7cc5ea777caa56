import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';

/** Api-keys look like Privacy's and Lithic's: a v4 UUID. Only their SHA-256 is ever stored. */
export function generateApiKey(): string {
  return randomUUID();
}

/** Keys are 122 random bits, so a fast hash is enough; a slow KDF would only slow every request. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * `Authorization: api-key <KEY>` as the spec writes it, or the bare key as Lithic's SDK sends it.
 * Returns null when no key is present.
 */
export function apiKeyFromHeader(header: string | undefined): string | null {
  if (header === undefined) return null;
  const value = header.trim();
  if (value === '') return null;
  const match = /^api-key\s+(\S+)$/i.exec(value);
  if (match) return match[1];
  return /\s/.test(value) ? null : value;
}

/**
 * A scheme word other than api-key before the credentials (`Bearer <KEY>`, `Basic ...`): the caller
 * sent a key the wrong way, which deserves its own message rather than "provide an API key".
 */
export function usesOtherScheme(header: string | undefined): boolean {
  const scheme = header === undefined ? null : /^(\S+)\s+\S/.exec(header.trim());
  return scheme !== null && scheme[1].toLowerCase() !== 'api-key';
}

/** Privacy's wording for the two ways an api-key can be wrong, and ours for a wrong scheme. */
export const MISSING_API_KEY_MESSAGE = 'Please provide API key in Authorization header';
export const UNKNOWN_API_KEY_MESSAGE = 'Could not find API key';
export const WRONG_SCHEME_MESSAGE = 'Authorization scheme must be api-key: send `Authorization: api-key <KEY>` (or the bare key)';

export class Unauthenticated extends Error {
  static readonly code = 'unauthenticated';
  constructor(message: string) {
    super(message);
    this.name = 'Unauthenticated';
  }
}

/** Where the guard looks keys up; the read model implements it. */
export interface ApiKeyDirectory {
  /** The program the key hash belongs to, with the stored hash, or null for an unknown or revoked key. */
  findByKeyHash(keyHash: string): Promise<{ programToken: string; keyHash: string } | null>;
}
export const API_KEY_DIRECTORY = Symbol('API_KEY_DIRECTORY');

export async function authenticate(directory: ApiKeyDirectory, header: string | undefined): Promise<string> {
  if (usesOtherScheme(header)) throw new Unauthenticated(WRONG_SCHEME_MESSAGE);
  const apiKey = apiKeyFromHeader(header);
  if (apiKey === null) throw new Unauthenticated(MISSING_API_KEY_MESSAGE);
  const keyHash = hashApiKey(apiKey);
  const found = await directory.findByKeyHash(keyHash);
  if (!found || !sameHash(found.keyHash, keyHash)) throw new Unauthenticated(UNKNOWN_API_KEY_MESSAGE);
  return found.programToken;
}
