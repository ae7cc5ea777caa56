import type { ApiKeyDirectory } from './api-keys';

type FoundKey = NonNullable<Awaited<ReturnType<ApiKeyDirectory['findByKeyHash']>>>;

/**
 * Keeps each key found for a short while, so a busy client costs one read-model lookup per key per
 * second instead of one (two, with the rate limiter) per request; under the bench's authorization
 * load that lookup is otherwise the largest share of Prisma's CPU on the request path.
 *
 * The price: a key revoked with `npm run admin` keeps working for up to `ttlMs` in a process that
 * found it just before (docs/decisions.md, API keys). Unknown and revoked keys are never kept, so a
 * key issued a moment ago works at once and a flood of wrong keys cannot fill the memory.
 */
export class CachedApiKeyDirectory implements ApiKeyDirectory {
  private readonly found = new Map<string, { readonly key: FoundKey; readonly until: number }>();

  constructor(
    private readonly source: ApiKeyDirectory,
    private readonly ttlMs = 1000,
    private readonly now: () => number = Date.now,
    private readonly capacity = 10_000,
  ) {}

  async findByKeyHash(keyHash: string): Promise<FoundKey | null> {
    const kept = this.found.get(keyHash);
    if (kept && kept.until > this.now()) return kept.key;
    const key = await this.source.findByKeyHash(keyHash);
    this.found.delete(keyHash);
    if (key === null) return null;
    // Oldest first out: a Map iterates in insertion order, and a refreshed key is inserted anew.
    if (this.found.size >= this.capacity) this.found.delete(this.found.keys().next().value as string);
    this.found.set(keyHash, { key, until: this.now() + this.ttlMs });
    return key;
  }
}
