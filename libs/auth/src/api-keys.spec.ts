import { apiKeyFromHeader, authenticate, hashApiKey, MISSING_API_KEY_MESSAGE, sameHash, UNKNOWN_API_KEY_MESSAGE, Unauthenticated, WRONG_SCHEME_MESSAGE } from './api-keys';

const key = '3b6e0c8a-5f1d-4a7e-9c2b-8d4f6a1e2c3b';
const directory = {
  async findByKeyHash(keyHash: string) {
    return keyHash === hashApiKey(key) ? { programToken: 'program-1', keyHash } : null;
  },
};

describe('api-keys', () => {
  it.each([
    [`api-key ${key}`, key],
    [`API-KEY   ${key}`, key],
    [key, key],
    [`  ${key}  `, key],
    [undefined, null],
    ['', null],
    ['api-key', 'api-key'],
    ['Bearer a b', null],
  ])('reads %p as %p', (header, expected) => {
    expect(apiKeyFromHeader(header)).toBe(expected);
  });

  it('stores only a SHA-256 hex digest', () => {
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).not.toContain(key);
  });

  it('compares hashes in constant time and refuses different lengths', () => {
    expect(sameHash(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(sameHash(hashApiKey(key), hashApiKey('other'))).toBe(false);
    expect(sameHash(hashApiKey(key), 'abcd')).toBe(false);
  });

  it('authenticates both header forms to the program', async () => {
    await expect(authenticate(directory, `api-key ${key}`)).resolves.toBe('program-1');
    await expect(authenticate(directory, key)).resolves.toBe('program-1');
  });

  it("answers with Privacy's messages", async () => {
    await expect(authenticate(directory, undefined)).rejects.toThrow(new Unauthenticated(MISSING_API_KEY_MESSAGE));
    await expect(authenticate(directory, 'api-key nope')).rejects.toThrow(new Unauthenticated(UNKNOWN_API_KEY_MESSAGE));
    await expect(authenticate(directory, 'api-key a b')).rejects.toThrow(new Unauthenticated(MISSING_API_KEY_MESSAGE));
  });

  it.each([`Bearer ${key}`, `bearer ${key}`, `Basic ${key}`, `Token ${key}`, `Bearer  ${key} extra`])('refuses %p, a key under another scheme, saying the scheme must be api-key', async (header) => {
    await expect(authenticate(directory, header)).rejects.toThrow(new Unauthenticated(WRONG_SCHEME_MESSAGE));
  });
});
