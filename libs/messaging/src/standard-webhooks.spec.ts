import { Webhook } from 'standardwebhooks';
import { generateSigningSecret, signedHeaders, verifySignature } from './standard-webhooks';

describe('Standard Webhooks signing', () => {
  const secret = generateSigningSecret();
  const body = JSON.stringify({ type: 'card.created', data: { token: 'abc' } });

  it('is verified by the standardwebhooks library', () => {
    const headers = signedHeaders(secret, 'msg_1', body);
    expect(new Webhook(secret).verify(body, headers as unknown as Record<string, string>)).toEqual(JSON.parse(body));
  });

  it('is refused by the library for a changed body or another secret', () => {
    const headers = signedHeaders(secret, 'msg_1', body) as unknown as Record<string, string>;
    expect(() => new Webhook(secret).verify(body.replace('abc', 'abd'), headers)).toThrow();
    expect(() => new Webhook(generateSigningSecret()).verify(body, headers)).toThrow();
  });

  it('verifies with our own check too', () => {
    const headers = signedHeaders(secret, 'msg_2', body);
    expect(verifySignature(secret, headers, body)).toBe(true);
    expect(verifySignature(secret, headers, `${body} `)).toBe(false);
  });

  it('makes whsec_ secrets of 32 random bytes', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(generateSigningSecret()).not.toBe(secret);
  });
});
