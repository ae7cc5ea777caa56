import { createHmac } from 'node:crypto';
import { canonicalJson, privacyHmac, verifyPrivacyHmac } from './privacy-hmac';

describe('X-Privacy-HMAC', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

  it('writes JSON as Python json.dumps(sort_keys=True, separators=(",", ":")) does', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
    // ensure_ascii: non-ASCII as \uXXXX, astral characters as their surrogate pair, DEL escaped too
    expect(canonicalJson({ memo: 'café 🍕\u007f "q" \n' })).toBe('{"memo":"caf\\u00e9 \\ud83c\\udf55\\u007f \\"q\\" \\n"}');
  });

  it('is base64 HMAC-SHA256 of the canonical JSON, keyed with the secret string', () => {
    const body = { token: 't', amount: 100 };
    const expected = createHmac('sha256', secret).update('{"amount":100,"token":"t"}').digest('base64');
    expect(privacyHmac(secret, body)).toBe(expected);
  });

  it('verifies whatever the key order of the parsed body, and refuses a change or another secret', () => {
    const header = privacyHmac(secret, { a: 1, b: 'two' });
    expect(verifyPrivacyHmac(secret, { b: 'two', a: 1 }, header)).toBe(true);
    expect(verifyPrivacyHmac(secret, { a: 2, b: 'two' }, header)).toBe(false);
    expect(verifyPrivacyHmac(`${secret}x`, { a: 1, b: 'two' }, header)).toBe(false);
    expect(verifyPrivacyHmac(secret, { a: 1, b: 'two' }, undefined)).toBe(false);
  });
});
