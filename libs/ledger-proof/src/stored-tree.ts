import { consistencyPath, EMPTY_TREE_ROOT, type Hash, inclusionPath, nodeHash } from './merkle-tree';

/**
 * The same RFC 9162 tree, computed from stored roots of complete subtrees instead of from every leaf,
 * so that a root, an inclusion proof or a consistency proof costs O(log n) reads and hashes however
 * long the log is (docs/audit.md, "Cost").
 *
 * A node is the root of a complete, aligned subtree: at `level` l and `index` i it covers leaves
 * [i·2^l, (i+1)·2^l); level 0 is the leaf hashes. Nodes never change once their leaves exist, so they
 * can be kept as the log grows (MerkleFrontier says which become complete with each leaf).
 */
export interface TreeNode {
  readonly level: number;
  readonly index: number;
}

export interface StoredNode extends TreeNode {
  readonly hash: Hash;
}

/** Node hashes looked up by position; a missing node is a fault of whoever fetched them. */
export interface NodeHashes {
  hash(level: number, index: number): Hash;
}

export const nodeKey = (level: number, index: number): string => `${level}:${index}`;

/** NodeHashes over a list of stored nodes. */
export function nodeHashesOf(nodes: Iterable<StoredNode>): NodeHashes {
  const byKey = new Map<string, Hash>();
  for (const node of nodes) byKey.set(nodeKey(node.level, node.index), node.hash);
  return {
    hash(level, index) {
      const found = byKey.get(nodeKey(level, index));
      if (!found) throw new RangeError(`node ${level}:${index} was not read`);
      return found;
    },
  };
}

/**
 * The complete subtrees that make up D[from:to], left to right. Every range the RFC's MTH, PATH and
 * PROOF ask for starts at a multiple of a power of two at least as large as the range, so it is the
 * blocks of the binary digits of its size, largest first, each aligned.
 */
export function blocksOf(from: number, to: number): TreeNode[] {
  const blocks: TreeNode[] = [];
  let start = from;
  for (let level = Math.floor(Math.log2(Math.max(1, to - from))) + 1; level >= 0; level--) {
    const size = 2 ** level;
    if (start + size <= to) {
      if (start % size !== 0) throw new RangeError(`range ${from}..${to} is not one the tree asks for`);
      blocks.push({ level, index: start / size });
      start += size;
    }
  }
  return blocks;
}

/** MTH(D[from:to]) from its blocks: the rightmost first, each block to the left hashed on top. */
export function rangeRootOf(hashes: NodeHashes, from: number, to: number): Hash {
  const blocks = blocksOf(from, to);
  if (blocks.length === 0) return EMPTY_TREE_ROOT;
  let root = hashes.hash(blocks[blocks.length - 1].level, blocks[blocks.length - 1].index);
  for (let i = blocks.length - 2; i >= 0; i--) root = nodeHash(hashes.hash(blocks[i].level, blocks[i].index), root);
  return root;
}

/**
 * A computation over stored nodes, in two steps: the nodes it needs (read them in one round trip),
 * then the answer from them. The needs come from running the same algorithm on placeholder hashes:
 * the RFC's recursions choose their ranges by sizes alone, never by hash values.
 */
export interface TreeQuery<T> {
  readonly needs: readonly TreeNode[];
  answer(hashes: NodeHashes): T;
}

const PLACEHOLDER = Buffer.alloc(32);

function planned<T>(run: (rangeRoot: (from: number, to: number) => Hash) => T): TreeQuery<T> {
  const needs = new Map<string, TreeNode>();
  run((from, to) => {
    for (const block of blocksOf(from, to)) needs.set(nodeKey(block.level, block.index), block);
    return PLACEHOLDER;
  });
  return { needs: [...needs.values()], answer: (hashes) => run((from, to) => rangeRootOf(hashes, from, to)) };
}

/** MTH(D[size]). */
export function rootQuery(size: number): TreeQuery<Hash> {
  return planned((rangeRoot) => rangeRoot(0, size));
}

/** PATH(leafIndex, D[size]). */
export function inclusionQuery(leafIndex: number, size: number): TreeQuery<Hash[]> {
  return planned((rangeRoot) => inclusionPath(rangeRoot, leafIndex, size));
}

/** PROOF(first, D[second]), with both roots. */
export function consistencyQuery(first: number, second: number): TreeQuery<{ firstRoot: Hash; secondRoot: Hash; proof: Hash[] }> {
  return planned((rangeRoot) => ({ firstRoot: rangeRoot(0, first), secondRoot: rangeRoot(0, second), proof: consistencyPath(rangeRoot, first, second) }));
}

/**
 * The right edge of a growing tree: the roots of the complete subtrees the first `size` leaves make
 * (one per binary digit of size). Appending a leaf completes the nodes that leaf closes, which is all
 * that has to be stored for it: amortised one node hash per leaf.
 */
export class MerkleFrontier {
  private constructor(
    private readonly edge: StoredNode[],
    private count: number,
  ) {}

  static empty(): MerkleFrontier {
    return new MerkleFrontier([], 0);
  }

  /** The frontier of a tree of `size` leaves whose nodes are stored: its blocks. */
  static resume(size: number, hashes: NodeHashes): MerkleFrontier {
    return new MerkleFrontier(blocksOf(0, size).map((block) => ({ ...block, hash: hashes.hash(block.level, block.index) })), size);
  }

  /** The nodes resume needs. */
  static needs(size: number): TreeNode[] {
    return blocksOf(0, size);
  }

  get size(): number {
    return this.count;
  }

  /** Adds the next leaf; returns it and every node it completes, lowest level first. */
  append(leaf: Hash): StoredNode[] {
    let node: StoredNode = { level: 0, index: this.count, hash: leaf };
    const completed = [node];
    while (this.edge.length > 0 && this.edge[this.edge.length - 1].level === node.level) {
      const left = this.edge.pop() as StoredNode;
      node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      completed.push(node);
    }
    this.edge.push(node);
    this.count++;
    return completed;
  }

  /** MTH of the leaves so far. */
  root(): Hash {
    return rangeRootOf(nodeHashesOf(this.edge), 0, this.count);
  }
}
