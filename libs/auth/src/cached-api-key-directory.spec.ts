import type { ApiKeyDirectory } from './api-keys';
import { CachedApiKeyDirectory } from './cached-api-key-directory';

class CountingDirectory implements ApiKeyDirectory {
  readonly keys = new Map<string, string>();
  lookups = 0;
  async findByKeyHash(keyHash: string) {
    this.lookups++;
    const programToken = this.keys.get(keyHash);
    return programToken ? { programToken, keyHash } : null;
  }
}

describe('CachedApiKeyDirectory', () => {
  let clock = 0;
  const source = new CountingDirectory();
  const cached = new CachedApiKeyDirectory(source, 1000, () => clock, 2);
  beforeEach(() => {
    clock = 0;
    source.lookups = 0;
    source.keys.clear();
  });

  it('given a key found once, when asked again within the ttl, then it answers without a lookup', async () => {
    source.keys.set('a', 'program-a');
    await expect(cached.findByKeyHash('a')).resolves.toEqual({ programToken: 'program-a', keyHash: 'a' });
    clock = 999;
    await expect(cached.findByKeyHash('a')).resolves.toEqual({ programToken: 'program-a', keyHash: 'a' });
    expect(source.lookups).toBe(1);
  });

  it('given a key revoked after it was found, when the ttl has passed, then it is refused', async () => {
    source.keys.set('r', 'program-r');
    await cached.findByKeyHash('r');
    source.keys.delete('r');
    clock = 1000;
    await expect(cached.findByKeyHash('r')).resolves.toBeNull();
    clock = 1001;
    await expect(cached.findByKeyHash('r')).resolves.toBeNull();
    expect(source.lookups).toBe(3);
  });

  it('never keeps a miss: a key issued right after a refused attempt works at once', async () => {
    await expect(cached.findByKeyHash('new')).resolves.toBeNull();
    source.keys.set('new', 'program-n');
    await expect(cached.findByKeyHash('new')).resolves.toEqual({ programToken: 'program-n', keyHash: 'new' });
  });

  it('keeps at most its capacity, dropping the oldest', async () => {
    for (const hash of ['x', 'y', 'z']) source.keys.set(hash, `program-${hash}`);
    await cached.findByKeyHash('x');
    await cached.findByKeyHash('y');
    await cached.findByKeyHash('z');
    source.lookups = 0;
    await cached.findByKeyHash('z');
    await cached.findByKeyHash('x');
    expect(source.lookups).toBe(1);
  });
});
