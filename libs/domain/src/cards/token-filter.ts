/**
 * A Bloom filter over transaction tokens: "surely not among them" in one hash and two bit reads.
 *
 * A card's approval always asks whether its token is already in the card's history, and the answer
 * is almost always no. In a large Map a "no" walks a bucket chain and compares keys: several cache
 * misses, which for a long history cost more than the rest of the decision. The filter's bits sit in
 * one small array, so most of those questions end here; a "maybe" (a token that is there, or now and
 * then one that is not) still asks the Map. Bits are only ever set, so the filter may be shared just
 * as the index it fronts is (entry-positions.ts): a token added by another branch can only turn a
 * "no" into a "maybe", never the other way.
 */
export class TokenFilter {
  private readonly bits: Int32Array;
  private readonly mask: number;
  private held = 0;

  /** Room for `capacity` tokens at about one false "maybe" in a hundred. */
  constructor(readonly capacity: number) {
    let size = 32;
    while (size < capacity * BITS_PER_TOKEN) size *= 2;
    this.bits = new Int32Array(size >>> 5);
    this.mask = size - 1;
  }

  get full(): boolean {
    return this.held >= this.capacity;
  }

  add(token: string): void {
    const hash = hashOf(token);
    const step = (hash >>> 16) | 1;
    this.set(hash & this.mask);
    this.set((hash + step) & this.mask);
    this.held++;
  }

  mayHold(token: string): boolean {
    const hash = hashOf(token);
    const step = (hash >>> 16) | 1;
    return this.isSet(hash & this.mask) && this.isSet((hash + step) & this.mask);
  }

  private set(bit: number): void {
    this.bits[bit >>> 5] |= 1 << (bit & 31);
  }

  private isSet(bit: number): boolean {
    return (this.bits[bit >>> 5] & (1 << (bit & 31))) !== 0;
  }
}

const BITS_PER_TOKEN = 16;

/** FNV-1a over the token's UTF-16 code units, with a final mix so both probes get well-spread bits. */
function hashOf(token: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < token.length; index++) hash = Math.imul(hash ^ token.charCodeAt(index), 0x01000193);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x2c1b3c6d);
  return (hash ^ (hash >>> 12)) >>> 0;
}
