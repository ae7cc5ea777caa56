/**
 * Where a log departs from the leaves a digest covers: the first index whose leaf differs, and what
 * the difference looks like there. The expected leaves are trusted only after they are shown to hash
 * to the signed root (verifyDigestLeaves), so a failure is always named against signed material.
 */
export type LeafDifferenceKind = 'altered' | 'deleted' | 'inserted' | 'swapped' | 'truncated';

export interface LeafDifference {
  readonly index: number;
  readonly kind: LeafDifferenceKind;
  readonly reason: string;
}

const REASONS: Record<LeafDifferenceKind, string> = {
  altered: 'the event here is not the one the digest covers (its content, position or per-stream hash was altered, re-chained or replaced)',
  deleted: 'the event the digest has here is missing: it was deleted',
  inserted: 'the event here is not in the digest: it was inserted',
  swapped: 'this event and the next are in each other\'s places',
  truncated: 'the log ends here; the digest covers more events: the tail was removed',
};

/** Leaf hashes in hex by index, undefined past the end (an array, or a view over packed leaves). */
export type HexLeaves = readonly string[] | { readonly length: number; hex(index: number): string | undefined };

/** Compares the log's leaves with the digest's, over the digest's leaves only: later events are growth, not tampering. */
export function firstLeafDifference(expectedLeaves: HexLeaves, actualLeaves: HexLeaves): LeafDifference | null {
  const expected = hexAt(expectedLeaves);
  const actual = hexAt(actualLeaves);
  for (let i = 0; i < expectedLeaves.length; i++) {
    if (actual(i) === expected(i)) continue;
    const kind: LeafDifferenceKind =
      i >= actualLeaves.length
        ? 'truncated'
        : actual(i) === expected(i + 1) && actual(i + 1) === expected(i)
          ? 'swapped'
          : actual(i) === expected(i + 1)
            ? 'deleted'
            : actual(i + 1) === expected(i)
              ? 'inserted'
              : 'altered';
    return { index: i, kind, reason: REASONS[kind] };
  }
  return null;
}

function hexAt(leaves: HexLeaves): (index: number) => string | undefined {
  return Array.isArray(leaves) ? (index) => (leaves as readonly string[])[index] : (index) => (leaves as Exclude<HexLeaves, readonly string[]>).hex(index);
}
