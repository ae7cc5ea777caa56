import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { consistencyProof, Hash, inclusionProof, treeRoot } from './merkle-tree';
import { blocksOf, consistencyQuery, inclusionQuery, MerkleFrontier, nodeHashesOf, rootQuery, StoredNode, TreeQuery } from './stored-tree';

const leafOf = (i: number): Hash => createHash('sha256').update(Buffer.from([0])).update(`leaf ${i}`).digest();
const hex = (hashes: Hash[]) => hashes.map((hash) => hash.toString('hex'));

/** A log of `count` leaves kept the incremental way: every node the frontier completes, stored. */
function grown(count: number): { leaves: Hash[]; stored: StoredNode[]; frontier: MerkleFrontier } {
  const leaves = Array.from({ length: count }, (_, i) => leafOf(i));
  const frontier = MerkleFrontier.empty();
  const stored = leaves.flatMap((leaf) => frontier.append(leaf));
  return { leaves, stored, frontier };
}

/** Answers a query from the stored nodes it says it needs, and from nothing else. */
function answered<T>(query: TreeQuery<T>, stored: readonly StoredNode[]): T {
  const wanted = new Set(query.needs.map((node) => `${node.level}:${node.index}`));
  return query.answer(nodeHashesOf(stored.filter((node) => wanted.has(`${node.level}:${node.index}`))));
}

const sizes = fc.integer({ min: 1, max: 600 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }), fc.integer({ min: 0, max: n })));

describe('the incremental tree (stored complete subtrees)', () => {
  it('gives the root of every size the full recomputation gives, from the nodes it asked for', () => {
    fc.assert(
      fc.property(sizes, ([n, a]) => {
        const { leaves, stored, frontier } = grown(n);
        expect(frontier.root().equals(treeRoot(leaves))).toBe(true);
        expect(answered(rootQuery(a), stored).toString('hex')).toBe(treeRoot(leaves, a).toString('hex'));
      }),
      { numRuns: 200 },
    );
  });

  it('gives the inclusion proof of every leaf the full recomputation gives', () => {
    fc.assert(
      fc.property(sizes, ([n, a, b]) => {
        const size = Math.max(a, b, 1);
        const leaf = Math.min(a, b, size - 1);
        const { leaves, stored } = grown(n);
        expect(hex(answered(inclusionQuery(leaf, size), stored))).toEqual(hex(inclusionProof(leaves, leaf, size)));
      }),
      { numRuns: 200 },
    );
  });

  it('gives the consistency proof and both roots the full recomputation gives', () => {
    fc.assert(
      fc.property(sizes, ([n, a, b]) => {
        const [first, second] = [Math.min(a, b), Math.max(a, b)];
        const { leaves, stored } = grown(n);
        const answer = answered(consistencyQuery(first, second), stored);
        expect(hex(answer.proof)).toEqual(hex(consistencyProof(leaves, first, second)));
        expect(answer.firstRoot.equals(treeRoot(leaves, first))).toBe(true);
        expect(answer.secondRoot.equals(treeRoot(leaves, second))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('reads O(log n) nodes: at most a few per level, whatever the size', () => {
    for (const n of [1, 2, 3, 1000, 1_048_575, 1_048_576, 2_000_001]) {
      const levels = Math.ceil(Math.log2(n)) + 1;
      expect(rootQuery(n).needs.length).toBeLessThanOrEqual(levels);
      expect(inclusionQuery(n - 1, n).needs.length).toBeLessThanOrEqual(2 * levels);
      expect(inclusionQuery(0, n).needs.length).toBeLessThanOrEqual(2 * levels);
      expect(consistencyQuery(Math.floor(n / 3), n).needs.length).toBeLessThanOrEqual(3 * levels);
    }
  });

  it('resumes from its stored nodes after a restart and completes the same nodes as one that never stopped', () => {
    fc.assert(
      fc.property(sizes, ([n, stop]) => {
        const { stored } = grown(n);
        const before = grown(stop).stored;
        const resumed = MerkleFrontier.resume(stop, nodeHashesOf(before.filter((node) => MerkleFrontier.needs(stop).some((need) => need.level === node.level && need.index === node.index))));
        const after = Array.from({ length: n - stop }, (_, i) => resumed.append(leafOf(stop + i))).flat();
        expect([...before, ...after].map((node) => `${node.level}:${node.index}:${node.hash.toString('hex')}`)).toEqual(stored.map((node) => `${node.level}:${node.index}:${node.hash.toString('hex')}`));
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a range that does not start on its own alignment, which would be a planning fault', () => {
    expect(blocksOf(8, 13)).toEqual([{ level: 2, index: 2 }, { level: 0, index: 12 }]);
    expect(() => blocksOf(3, 7)).toThrow(RangeError);
  });
});
