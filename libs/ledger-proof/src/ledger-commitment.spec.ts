import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { chainEvents } from '@ledger/event-store';
import { leafHash, type LoggedEvent } from './leaf-hash';
import { treeRoot } from './merkle-tree';
import { exportedEventOf, inclusionPathOf, verifyEventProof } from './event-proof';
import { DigestSigner, generateSigningKeyPem, keyIdOf, parsePublicKey, parseSigningKey, verifyDigest } from './signed-digest';

/** A log of `count` events over a few streams, each stream hash-chained as the event store chains it. */
function logOf(count: number, streams: number): LoggedEvent[] {
  const heads = new Map<string, { streamVersion: number; hash: string; position: { commit: bigint; prepare: bigint } }>();
  return Array.from({ length: count }, (_, i) => {
    const streamId = `card-${i % streams}`;
    const [chained] = chainEvents(streamId, heads.get(streamId) ?? null, [
      { type: 'AmountHeld', schemaVersion: 1, data: { amount: 100 + i }, metadata: { eventId: `e${i}`, correlationId: 'c', causationId: null, programToken: 'p', occurredAt: '2026-01-01T00:00:00.000Z' } },
    ]);
    const streamVersion = (heads.get(streamId)?.streamVersion ?? -1) + 1;
    heads.set(streamId, { streamVersion, hash: String(chained.metadata.hash), position: { commit: BigInt(i + 1), prepare: 0n } });
    return { streamId, streamVersion, position: `${i + 1}/0`, type: chained.type, schemaVersion: chained.schemaVersion, data: chained.data, metadata: chained.metadata };
  });
}

const rootOf = (log: readonly LoggedEvent[]) => treeRoot(log.map(leafHash)).toString('hex');

type Tamper = (log: LoggedEvent[], i: number, j: number) => LoggedEvent[];
const tampers: Record<string, Tamper> = {
  'edit data': (log, i) => log.map((e, k) => (k === i ? { ...e, data: { amount: 1 } } : e)),
  'edit metadata': (log, i) => log.map((e, k) => (k === i ? { ...e, metadata: { ...e.metadata, occurredAt: '2020-01-01T00:00:00.000Z' } } : e)),
  'edit the per-stream hash': (log, i) => log.map((e, k) => (k === i ? { ...e, metadata: { ...e.metadata, hash: '0'.repeat(64) } } : e)),
  'move to another position': (log, i) => log.map((e, k) => (k === i ? { ...e, position: `${k + 1}/1` } : e)),
  delete: (log, i) => log.filter((_, k) => k !== i),
  'insert a copy': (log, i) => [...log.slice(0, i), { ...log[i], metadata: { ...log[i].metadata, eventId: 'forged' } }, ...log.slice(i)],
  'swap two events': (log, i, j) => {
    const out = [...log];
    [out[i], out[j]] = [out[j], out[i]];
    return out;
  },
  truncate: (log, i) => log.slice(0, i),
};

describe('the ledger-wide commitment', () => {
  it.each(Object.keys(tampers))('%s anywhere in the log changes the root', (name) => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 60 }).chain((count) => fc.tuple(fc.constant(count), fc.nat(count - 1), fc.nat(count - 1), fc.integer({ min: 1, max: 5 }))), ([count, i, j, streams]) => {
        fc.pre(name !== 'swap two events' || i !== j);
        const log = logOf(count, streams);
        expect(rootOf(tampers[name](log, i, j))).not.toBe(rootOf(log));
      }),
      { numRuns: 60 },
    );
  });

  it('a proof of one event checks against the digest, and fails once the event is altered', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }).chain((count) => fc.tuple(fc.constant(count), fc.nat(count - 1))), ([count, index]) => {
        const log = logOf(count, 3);
        const leaves = log.map(leafHash);
        const digest = { tree_size: count, root: treeRoot(leaves).toString('hex') };
        const path = inclusionPathOf(leaves, index, count);
        expect(verifyEventProof(exportedEventOf(log[index]), path, digest)).toEqual({ valid: true });
        const altered = exportedEventOf({ ...log[index], data: { amount: 1 } });
        expect(verifyEventProof(altered, path, digest).valid).toBe(false);
        expect(verifyEventProof(exportedEventOf(log[index]), { ...path, tree_size: count + 1 }, digest).valid).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});

describe('signed digests', () => {
  const signer = new DigestSigner(parseSigningKey(generateSigningKeyPem()));
  const digest = signer.sign({ tree_size: 3, position: '3/0', root: 'ab'.repeat(32), signed_at: '2026-01-01T00:00:00.000Z' });

  it('verify with the signing key, whose id is the first 16 hex digits of SHA-256 of the raw public key', () => {
    expect(digest.key_id).toBe(keyIdOf(signer.publicKey));
    expect(digest.key_id).toMatch(/^[0-9a-f]{16}$/);
    expect(verifyDigest(digest, [signer.publicKey])).toEqual({ valid: true });
  });

  it.each([
    ['tree_size', { tree_size: 2 }],
    ['position', { position: '2/0' }],
    ['root', { root: 'cd'.repeat(32) }],
    ['signed_at', { signed_at: '2026-01-02T00:00:00.000Z' }],
    // Flip the last byte's bits so the change is real whatever the signature ends with.
    ['signature', { signature: digest.signature.slice(0, -2) + (Number.parseInt(digest.signature.slice(-2), 16) ^ 0xff).toString(16).padStart(2, '0') }],
  ])('fail when the %s is changed', (_field, change) => {
    expect(verifyDigest({ ...digest, ...change }, [signer.publicKey]).valid).toBe(false);
  });

  it('after rotation an old digest verifies with the retired key kept, and not with the new key alone', () => {
    const next = new DigestSigner(parseSigningKey(generateSigningKeyPem()));
    expect(verifyDigest(digest, [next.publicKey]).valid).toBe(false);
    expect(verifyDigest(digest, [next.publicKey, parsePublicKey(signer.publicKey.toString('hex'))])).toEqual({ valid: true });
    expect(verifyDigest(next.sign({ tree_size: 4, position: '4/0', root: digest.root, signed_at: digest.signed_at }), [next.publicKey, signer.publicKey])).toEqual({ valid: true });
  });

  it('take the key as PEM or as base64 of the PKCS#8 DER, and refuse a key that is not Ed25519', () => {
    const pem = generateSigningKeyPem();
    const base64 = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    expect(new DigestSigner(parseSigningKey(base64)).keyId).toBe(new DigestSigner(parseSigningKey(pem)).keyId);
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => parseSigningKey(ec)).toThrow(/Ed25519/);
  });
});
