import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Privacy.com's webhook signature, the X-Privacy-HMAC header: base64 of HMAC-SHA256 over the JSON
 * body written in canonical form, keyed with the UTF-8 bytes of a secret. Privacy keys it with the
 * api-key; we key it with the subscription's whole whsec_ secret string (prefix included), so one
 * secret serves both this header and the Standard Webhooks signature.
 *
 * The canonical form is what Privacy's documented verifier computes in Python,
 * `json.dumps(body, sort_keys=True, separators=(',', ':'))`: object keys sorted, no whitespace, and
 * every character outside printable ASCII escaped as \uXXXX (lowercase hex, UTF-16 code units).
 * A receiver therefore verifies from the parsed body, whatever its JSON library did to spacing or key
 * order; comparing raw bytes would work as well, but is not what Privacy promises.
 */
export const PRIVACY_HMAC_HEADER = 'X-Privacy-HMAC';

/** Python's json.dumps(sort_keys=True, separators=(',', ':')) with its default ensure_ascii. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

export function privacyHmac(secret: string, body: unknown): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(canonicalJson(body), 'utf8').digest('base64');
}

export function verifyPrivacyHmac(secret: string, body: unknown, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(privacyHmac(secret, body));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
