import { createHash } from 'node:crypto';

/**
 * The Merkle tree of RFC 9162 §2.1 (Certificate Transparency v2), over leaf hashes already computed
 * (see leaf-hash.ts). Hashes are 32-byte Buffers. Written after the RFC's recursive definitions so
 * that a verifier in another language can follow the same text: MTH, PATH, PROOF/SUBPROOF, and the
 * two verification algorithms of §2.1.3.2 and §2.1.4.2.
 */
export type Hash = Buffer;

const NODE_PREFIX = Buffer.from([0x01]);

/** SHA-256(0x01 || left || right). */
export function nodeHash(left: Hash, right: Hash): Hash {
  return createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest();
}

/**
 * Leaf hashes the tree reads by index: an array, or PackedLeaves, which keeps them in one buffer
 * (32 bytes a leaf, outside the JS heap: a million leaves as a million Buffers take about 280 MB of
 * heap, more than the service's whole heap cap).
 */
export type Leaves = readonly Hash[] | LeafList;

export interface LeafList {
  readonly length: number;
  leaf(index: number): Hash;
}

export class PackedLeaves implements LeafList {
  private buffer = Buffer.alloc(32 * 1024);
  length = 0;

  static of(hashes: Iterable<Hash>): PackedLeaves {
    const packed = new PackedLeaves();
    for (const hash of hashes) packed.push(hash);
    return packed;
  }

  push(hash: Hash): void {
    if ((this.length + 1) * 32 > this.buffer.length) {
      const grown = Buffer.alloc(this.buffer.length * 2);
      this.buffer.copy(grown);
      this.buffer = grown;
    }
    hash.copy(this.buffer, this.length * 32);
    this.length++;
  }

  /** A view of the leaf's 32 bytes (valid until the next push grows the buffer). */
  leaf(index: number): Hash {
    if (index < 0 || index >= this.length) throw new RangeError(`no leaf ${index} among ${this.length}`);
    return this.buffer.subarray(index * 32, index * 32 + 32);
  }
}

function leafAt(leaves: Leaves): (index: number) => Hash {
  return Array.isArray(leaves) ? (index) => (leaves as readonly Hash[])[index] : (index) => (leaves as LeafList).leaf(index);
}

/** MTH({}): the hash of the empty string. */
export const EMPTY_TREE_ROOT: Hash = createHash('sha256').digest();

/** The largest power of two strictly smaller than n (n > 1). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[from:to]) over leaf hashes. */
function subtreeRoot(leaf: (index: number) => Hash, from: number, to: number): Hash {
  const n = to - from;
  if (n === 0) return EMPTY_TREE_ROOT;
  if (n === 1) return leaf(from);
  const k = splitPoint(n);
  return nodeHash(subtreeRoot(leaf, from, from + k), subtreeRoot(leaf, from + k, to));
}

function assertSize(leaves: Leaves, treeSize: number): void {
  if (!Number.isInteger(treeSize) || treeSize < 0 || treeSize > leaves.length) {
    throw new RangeError(`tree size ${treeSize} is outside 0..${leaves.length}`);
  }
}

/** The root of the tree of the first treeSize leaves. */
export function treeRoot(leaves: Leaves, treeSize = leaves.length): Hash {
  assertSize(leaves, treeSize);
  return subtreeRoot(leafAt(leaves), 0, treeSize);
}

/**
 * MTH(D[from:to]) by whatever means the caller has: from the leaves (this file), or from stored roots
 * of complete subtrees (stored-tree.ts). The RFC's PATH and PROOF below only ever ask for such ranges.
 */
export type RangeRoot = (from: number, to: number) => Hash;

/** PATH(m, D[n]): the audit path of leaf m in the tree of the first treeSize leaves, leaf side first. */
export function inclusionProof(leaves: Leaves, leafIndex: number, treeSize: number): Hash[] {
  assertSize(leaves, treeSize);
  const leaf = leafAt(leaves);
  return inclusionPath((from, to) => subtreeRoot(leaf, from, to), leafIndex, treeSize);
}

/** PATH(m, D[n]) over any source of subtree roots. */
export function inclusionPath(rangeRoot: RangeRoot, leafIndex: number, treeSize: number): Hash[] {
  if (!Number.isInteger(leafIndex) || leafIndex < 0 || leafIndex >= treeSize) {
    throw new RangeError(`leaf ${leafIndex} is not in a tree of ${treeSize} leaves`);
  }
  const path = (m: number, from: number, to: number): Hash[] => {
    const n = to - from;
    if (n <= 1) return [];
    const k = splitPoint(n);
    return m < k ? [...path(m, from, from + k), rangeRoot(from + k, to)] : [...path(m - k, from + k, to), rangeRoot(from, from + k)];
  };
  return path(leafIndex, 0, treeSize);
}

/** PROOF(m, D[n]): shows that the tree of the first `first` leaves is a prefix of the tree of `second`. */
export function consistencyProof(leaves: Leaves, first: number, second: number): Hash[] {
  assertSize(leaves, second);
  const leaf = leafAt(leaves);
  return consistencyPath((from, to) => subtreeRoot(leaf, from, to), first, second);
}

/** PROOF(m, D[n]) over any source of subtree roots. */
export function consistencyPath(rangeRoot: RangeRoot, first: number, second: number): Hash[] {
  if (!Number.isInteger(first) || first < 0 || first > second) throw new RangeError(`size ${first} is outside 0..${second}`);
  if (first === 0 || first === second) return [];
  const subproof = (m: number, from: number, to: number, complete: boolean): Hash[] => {
    const n = to - from;
    if (m === n) return complete ? [] : [rangeRoot(from, to)];
    const k = splitPoint(n);
    return m <= k
      ? [...subproof(m, from, from + k, complete), rangeRoot(from + k, to)]
      : [...subproof(m - k, from + k, to, false), rangeRoot(from, from + k)];
  };
  return subproof(first, 0, second, true);
}

const isSet = (value: bigint) => (value & 1n) === 1n;

/** RFC 9162 §2.1.3.2. True when the path leads from the leaf hash at leafIndex to root in a tree of treeSize. */
export function verifyInclusion(leafHash: Hash, leafIndex: number, treeSize: number, path: readonly Hash[], root: Hash): boolean {
  if (!(leafIndex >= 0 && leafIndex < treeSize)) return false;
  let fn = BigInt(leafIndex);
  let sn = BigInt(treeSize - 1);
  let r = leafHash;
  for (const p of path) {
    if (sn === 0n) return false;
    if (isSet(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!isSet(fn)) {
        do {
          fn >>= 1n;
          sn >>= 1n;
        } while (!isSet(fn) && fn !== 0n);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && r.equals(root);
}

/**
 * RFC 9162 §2.1.4.2, for 0 < first < second. The two edge cases the RFC leaves out are defined here
 * the only way that is sound: equal sizes need equal roots and an empty proof; any tree extends the
 * empty tree (first 0, empty proof).
 */
export function verifyConsistency(first: number, second: number, firstRoot: Hash, secondRoot: Hash, proof: readonly Hash[]): boolean {
  if (!(first >= 0 && first <= second)) return false;
  if (first === 0) return proof.length === 0 && firstRoot.equals(EMPTY_TREE_ROOT);
  if (first === second) return proof.length === 0 && firstRoot.equals(secondRoot);
  if (proof.length === 0) return false;
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  let fn = BigInt(first - 1);
  let sn = BigInt(second - 1);
  while (isSet(fn)) {
    fn >>= 1n;
    sn >>= 1n;
  }
  let fr = path[0];
  let sr = path[0];
  for (const c of path.slice(1)) {
    if (sn === 0n) return false;
    if (isSet(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!isSet(fn)) {
        do {
          fn >>= 1n;
          sn >>= 1n;
        } while (!isSet(fn) && fn !== 0n);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return fr.equals(firstRoot) && sr.equals(secondRoot) && sn === 0n;
}

function isPowerOfTwo(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}
