import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { consistencyProof, EMPTY_TREE_ROOT, Hash, inclusionProof, PackedLeaves, treeRoot, verifyConsistency, verifyInclusion } from './merkle-tree';

const rawLeafHash = (hex: string): Hash => createHash('sha256').update(Buffer.from([0])).update(Buffer.from(hex, 'hex')).digest();
const leavesOf = (count: number): Hash[] => Array.from({ length: count }, (_, i) => rawLeafHash(i.toString(16).padStart(8, '0')));
const flipped = (hash: Hash): Hash => {
  const copy = Buffer.from(hash);
  copy[0] ^= 1;
  return copy;
};

describe('Merkle tree (RFC 9162 §2.1)', () => {
  it('matches the Certificate Transparency reference roots for the eight test leaves', () => {
    // The test vectors of the RFC 6962 reference implementation (merkle_tree_test): roots of the first 1..8 leaves.
    const leaves = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(rawLeafHash);
    const roots = [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
      'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
      '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
      '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
      'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
      '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
    ];
    expect(roots.map((_, i) => treeRoot(leaves, i + 1).toString('hex'))).toEqual(roots);
    expect(treeRoot(leaves, 0).toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('an inclusion proof verifies for every size and index, and fails for any other leaf, index, size, root or path', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }).chain((size) => fc.tuple(fc.constant(size), fc.nat(size - 1), fc.nat(1000))), ([size, index, pick]) => {
        const leaves = leavesOf(size);
        const root = treeRoot(leaves);
        const path = inclusionProof(leaves, index, size);
        expect(verifyInclusion(leaves[index], index, size, path, root)).toBe(true);
        expect(path.length).toBeLessThanOrEqual(Math.ceil(Math.log2(size)));
        expect(verifyInclusion(flipped(leaves[index]), index, size, path, root)).toBe(false);
        expect(verifyInclusion(leaves[index], index, size, path, flipped(root))).toBe(false);
        if (size > 1) {
          const other = (index + 1 + (pick % (size - 1))) % size;
          expect(verifyInclusion(leaves[index], other, size, path, root)).toBe(false);
          expect(verifyInclusion(leaves[other], index, size, path, root)).toBe(false);
          const tampered = [...path];
          tampered[pick % path.length] = flipped(tampered[pick % path.length]);
          expect(verifyInclusion(leaves[index], index, size, tampered, root)).toBe(false);
          expect(verifyInclusion(leaves[index], index, size, path.slice(0, -1), root)).toBe(false);
          expect(verifyInclusion(leaves[index], index, size, [...path, root], root)).toBe(false);
        }
        // (The tree size itself is not bound by the path, e.g. leaf 0 of 3 and of 4 share a path shape: the signed digest binds it.)
      }),
      { numRuns: 300 },
    );
  });

  it('a consistency proof verifies for every pair of sizes, and fails for a changed prefix, root or proof', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }).chain((second) => fc.tuple(fc.nat(second), fc.constant(second), fc.nat(1000))), ([first, second, pick]) => {
        const leaves = leavesOf(second);
        const firstRoot = treeRoot(leaves, first);
        const secondRoot = treeRoot(leaves, second);
        const proof = consistencyProof(leaves, first, second);
        expect(verifyConsistency(first, second, firstRoot, secondRoot, proof)).toBe(true);
        if (first > 0) {
          expect(verifyConsistency(first, second, flipped(firstRoot), secondRoot, proof)).toBe(false);
          expect(verifyConsistency(first, second, firstRoot, flipped(secondRoot), proof)).toBe(false);
          // A log that rewrote one of the first `first` leaves cannot prove it extends the old tree.
          const rewritten = [...leaves];
          rewritten[pick % first] = flipped(rewritten[pick % first]);
          expect(verifyConsistency(first, second, firstRoot, treeRoot(rewritten, second), consistencyProof(rewritten, first, second))).toBe(false);
        }
        if (proof.length > 0) {
          const tampered = [...proof];
          tampered[pick % proof.length] = flipped(tampered[pick % proof.length]);
          expect(verifyConsistency(first, second, firstRoot, secondRoot, tampered)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the empty tree is the hash of nothing, and every tree extends it', () => {
    expect(treeRoot([])).toEqual(EMPTY_TREE_ROOT);
    expect(verifyConsistency(0, 3, EMPTY_TREE_ROOT, treeRoot(leavesOf(3)), [])).toBe(true);
    expect(verifyInclusion(leavesOf(1)[0], 0, 0, [], EMPTY_TREE_ROOT)).toBe(false);
  });

  it('gives the same roots and proofs over packed leaves as over an array, past the packed buffer growing', () => {
    const leaves = leavesOf(2500);
    const packed = PackedLeaves.of(leaves);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2500 }).chain((size) => fc.tuple(fc.constant(size), fc.nat(size - 1), fc.nat(size))), ([size, index, first]) => {
        expect(treeRoot(packed, size)).toEqual(treeRoot(leaves, size));
        expect(inclusionProof(packed, index, size)).toEqual(inclusionProof(leaves, index, size));
        expect(consistencyProof(packed, first, size)).toEqual(consistencyProof(leaves, first, size));
      }),
      { numRuns: 50 },
    );
  });
});
