/**
 * The keys a replay has written so far, as a Bloom filter: "never written" is certain, "written" may
 * be wrong. A replay writes into a schema it has just created, so a row it never wrote is absent and
 * need not be read; a key the filter only might hold is read as before. The memory is fixed (one bit
 * array, 8 MiB at most) however long the log: on a very long one more keys come out "maybe", which
 * costs reads, never a wrong row.
 */
export class WrittenKeys {
  private readonly bits: Uint32Array;
  private readonly mask: number;

  /** @param log2Bits the filter's size: 2^log2Bits bits (default 2^26, 8 MiB: about 1% false "maybe" at 5 million keys). */
  constructor(log2Bits = 26) {
    this.bits = new Uint32Array(2 ** (log2Bits - 5));
    this.mask = 2 ** log2Bits - 1;
  }

  add(table: number, key: string): void {
    const [h1, h2] = hashes(table, key);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) & this.mask;
      this.bits[bit >>> 5] |= 1 << (bit & 31);
    }
  }

  /** False: the key was never added. True: it may have been. */
  mayHave(table: number, key: string): boolean {
    const [h1, h2] = hashes(table, key);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) & this.mask;
      if ((this.bits[bit >>> 5] & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/** Bits set per key. */
const PROBES = 7;

/** Two independent 32-bit hashes of the key within its table (FNV-1a and a multiplicative mix), for double hashing. */
function hashes(table: number, key: string): [number, number] {
  let a = (0x811c9dc5 ^ table) >>> 0;
  let b = (0x9747b28c + table) >>> 0;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // An odd step visits distinct bits for every probe.
  return [a >>> 0, (b | 1) >>> 0];
}
