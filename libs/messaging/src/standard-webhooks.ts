import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signing per the Standard Webhooks specification, so receivers can verify with any of its
 * libraries: the signed content is "<id>.<timestamp>.<body>", HMAC-SHA256 with the secret's bytes,
 * sent as "v1,<base64>" in webhook-signature beside webhook-id and webhook-timestamp.
 */
export const SECRET_PREFIX = 'whsec_';

export function generateSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function secretBytes(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('A signing secret starts with whsec_');
  return Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  return createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
}

export function signedHeaders(secret: string, id: string, body: string, now: Date = new Date()): SignedHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signatureOf(secret, id, timestamp, body)}` };
}

/** Our own check, for tests and for receivers written against this service. */
export function verifySignature(secret: string, headers: SignedHeaders, body: string): boolean {
  const expected = Buffer.from(signatureOf(secret, headers['webhook-id'], Number(headers['webhook-timestamp']), body));
  return headers['webhook-signature'].split(' ').some((candidate) => {
    const [version, signature] = candidate.split(',');
    const given = Buffer.from(signature ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
