import { createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ChainVerifier, EventStore, formatPosition, parsePosition, RecordedEvent } from '@ledger/event-store';
import {
  ExportedEvent,
  firstLeafDifference,
  InclusionPath,
  leafHash,
  loggedEventOf,
  SignedDigest,
  treeRoot,
  verifyDigest,
  verifyEventProof,
} from '@ledger/ledger-proof';
import { DigestKeys, type LedgerLeaves, readLedgerLeaves } from '@ledger/runtime';

/**
 * A digest as the operator saves it (`admin digest --out`): the signed digest, and the leaf hashes it
 * covers. The signature is over the root only; the leaves are trusted once they hash to that root,
 * and they let `verify --digest` name the first event that departs from the digest. A digest taken
 * from the API (no leaf_hashes) detects the same tampering, but can name the place only when the
 * per-stream chains or the positions show it.
 */
export interface DigestFile extends SignedDigest {
  readonly leaf_hashes?: readonly string[];
}

/** Where the check stopped: the first position that does not match, and what is wrong there. */
export interface Mismatch {
  /** The event's index in the log (0-based, global-position order), or the export's line number. */
  readonly index?: number;
  readonly line?: number;
  readonly position: string | null;
  readonly event_id?: string;
  readonly stream?: string;
  readonly reason: string;
}

export interface AuditReport {
  readonly intact: boolean;
  readonly digest: Pick<SignedDigest, 'tree_size' | 'position' | 'root' | 'key_id' | 'signed_at'>;
  readonly events_checked: number;
  readonly first_mismatch: Mismatch | null;
}

export function takeDigestFile(log: LedgerLeaves, keys: DigestKeys): DigestFile {
  const digest = keys.signer.sign({
    tree_size: log.leaves.length,
    position: log.lastPosition,
    root: treeRoot(log.leaves).toString('hex'),
    signed_at: new Date().toISOString(),
  });
  return { ...digest, leaf_hashes: Array.from({ length: log.leaves.length }, (_, i) => log.leaves.leaf(i).toString('hex')) };
}

export async function writeDigestFile(store: EventStore, keys: DigestKeys, file: string): Promise<SignedDigest> {
  const { leaf_hashes: _leaves, ...digest } = takeDigestFile(await readLedgerLeaves(store), keys);
  writeFileSync(file, `${JSON.stringify({ ...digest, leaf_hashes: _leaves })}\n`);
  return digest;
}

function summary(digest: SignedDigest): AuditReport['digest'] {
  return { tree_size: digest.tree_size, position: digest.position, root: digest.root, key_id: digest.key_id, signed_at: digest.signed_at };
}

function report(digest: SignedDigest, events: number, mismatch: Mismatch | null): AuditReport {
  return { intact: mismatch === null, digest: summary(digest), events_checked: events, first_mismatch: mismatch };
}

/** A digest's own failures: an untrusted key, a bad signature, leaf hashes that do not make its root. */
function digestFailure(digest: DigestFile, trusted: readonly Buffer[]): Mismatch | null {
  if (trusted.length === 0) return { position: digest.position, reason: 'no trusted public key to check the digest with: pass --key PUBLIC_KEY_HEX' };
  const signature = verifyDigest(digest, trusted);
  if (!signature.valid) return { position: digest.position, reason: `the digest itself does not verify: ${signature.reason}` };
  if (digest.leaf_hashes) {
    if (digest.leaf_hashes.length !== digest.tree_size) return { position: digest.position, reason: `the digest file lists ${digest.leaf_hashes.length} leaf hashes for a tree of ${digest.tree_size}` };
    if (treeRoot(digest.leaf_hashes.map((hash) => Buffer.from(hash, 'hex'))).toString('hex') !== digest.root) return { position: digest.position, reason: 'the digest file\'s leaf hashes do not make its signed root' };
  }
  return null;
}

function describe(event: RecordedEvent | undefined): Pick<Mismatch, 'position' | 'event_id' | 'stream'> {
  return event ? { position: formatPosition(event.position), event_id: event.metadata.eventId, stream: `${event.streamId}@${event.streamVersion}` } : { position: null };
}

/**
 * The whole store against a saved digest: the first tree_size events must hash to its root. With the
 * digest's leaf hashes the first differing event is named; without them, the per-stream chains and
 * the digest's last position name what they can, and the root names the rest.
 */
export async function verifyStoreAgainstDigest(store: EventStore, digest: DigestFile, trusted: readonly Buffer[]): Promise<AuditReport> {
  const failure = digestFailure(digest, trusted);
  if (failure) return report(digest, 0, failure);
  // One pass keeps the leaves (packed), the positions, and the first chain break with its event;
  // the event at a differing leaf is read again afterwards, so no event is held in memory.
  const chains = new ChainVerifier();
  let chainBreak: Mismatch | null = null;
  const { leaves, positions } = await readLedgerLeaves(store, {
    keepPositions: true,
    visit: (event, index) => {
      if (chainBreak || index >= digest.tree_size) return;
      chains.check(event);
      if (chains.firstBreak) chainBreak = { index, ...describe(event), reason: chains.firstBreak.reason };
    },
  });
  const checked = Math.min(leaves.length, digest.tree_size);
  const eventAt = async (index: number) => (await store.readAll({ after: index === 0 ? null : parsePosition(positions[index - 1]), maxCount: 1 }))[0];
  if (digest.leaf_hashes) {
    const actual = { length: leaves.length, hex: (index: number) => (index < leaves.length ? leaves.leaf(index).toString('hex') : undefined) };
    const difference = firstLeafDifference(digest.leaf_hashes, actual);
    if (!difference) return report(digest, checked, null);
    if (difference.kind === 'truncated') return report(digest, checked, { index: difference.index, position: positions[difference.index - 1] ?? null, reason: difference.reason });
    return report(digest, checked, { index: difference.index, ...describe(await eventAt(difference.index)), reason: difference.reason });
  }
  if (leaves.length >= digest.tree_size && treeRoot(leaves, digest.tree_size).toString('hex') === digest.root) return report(digest, checked, null);
  if (chainBreak) return report(digest, checked, chainBreak);
  if (leaves.length < digest.tree_size) return report(digest, checked, { index: leaves.length, position: positions[leaves.length - 1] ?? null, reason: `the log has ${leaves.length} events, the digest covers ${digest.tree_size}: events were removed` });
  const last = digest.tree_size - 1;
  if (digest.tree_size > 0 && positions[last] !== digest.position) {
    return report(digest, checked, { index: last, ...describe(await eventAt(last)), reason: `the digest's last event is at ${digest.position}, the log's event at that index is at ${positions[last]}: events were inserted or removed before it` });
  }
  return report(digest, checked, { position: null, reason: 'the first tree_size events do not hash to the digest\'s root: an event was altered, re-chained or replaced; a digest file with leaf_hashes (admin digest --out) names which' });
}

/** One line of a program export: the stored event, with its inclusion proof against the export's digest. */
export interface ExportLine extends ExportedEvent {
  readonly proof?: InclusionPath;
}

/** The first line of an export: the digest every event's proof leads to. */
export interface ExportHeader {
  readonly digest: SignedDigest;
}

/**
 * A program export, offline: the digest (the export's own, or the auditor's saved one, which must be
 * the same tree), each event's proof against it, indices that only grow, and each stream's chain.
 */
export async function verifyExportAgainstDigest(file: string, saved: DigestFile | null, trusted: readonly Buffer[]): Promise<AuditReport> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let digest: SignedDigest | null = saved;
  let lineNumber = 0;
  let events = 0;
  let lastIndex = -1;
  const chains = new ChainVerifier();
  const fail = (mismatch: Mismatch) => report(digest ?? ({ tree_size: 0, position: null, root: '', key_id: '', signed_at: '' } as unknown as SignedDigest), events, mismatch);
  for await (const text of lines) {
    lineNumber++;
    if (text.trim() === '') continue;
    const parsed = JSON.parse(text) as ExportLine | ExportHeader;
    if ('digest' in parsed) {
      if (lineNumber !== 1) return fail({ line: lineNumber, position: null, reason: 'a digest header after the first line' });
      if (saved && (saved.tree_size !== parsed.digest.tree_size || saved.root !== parsed.digest.root)) {
        return fail({ line: 1, position: parsed.digest.position, reason: `the export proves against a digest of ${parsed.digest.tree_size} events (root ${parsed.digest.root}), not the saved one of ${saved.tree_size} (root ${saved.root}): export again with --digest` });
      }
      digest = saved ?? parsed.digest;
      const failure = digestFailure(digest, trusted);
      if (failure) return fail(failure);
      continue;
    }
    if (!digest) return fail({ line: lineNumber, position: null, reason: 'the export has no digest header and no --digest was given' });
    const event = parsed;
    const at = { line: lineNumber, position: event.position, event_id: event.metadata?.eventId, stream: `${event.stream_id}@${event.stream_version}` };
    if (!event.proof) return fail({ ...at, reason: 'the event carries no inclusion proof' });
    if (event.proof.leaf_index <= lastIndex) return fail({ ...at, index: event.proof.leaf_index, reason: `leaf index ${event.proof.leaf_index} does not follow ${lastIndex}: the export is out of order` });
    const proof = verifyEventProof(event, event.proof, digest);
    if (!proof.valid) return fail({ ...at, index: event.proof.leaf_index, reason: proof.reason });
    chains.check({ ...loggedEventOf(event) });
    if (chains.firstBreak) return fail({ ...at, index: event.proof.leaf_index, reason: chains.firstBreak.reason });
    lastIndex = event.proof.leaf_index;
    events++;
  }
  if (!digest) return fail({ position: null, reason: 'the export is empty and no --digest was given' });
  return report(digest, events, null);
}

/** A proof from GET /v1/audit/proof (optionally with the digest inside, as `digest`), against a saved digest. */
export function verifyProofFile(proof: { event: ExportedEvent; leaf_index: number; tree_size: number; audit_path: string[]; digest?: SignedDigest }, saved: DigestFile | null, trusted: readonly Buffer[]): AuditReport {
  const digest = saved ?? proof.digest;
  const at = { index: proof.leaf_index, position: proof.event?.position ?? null, event_id: proof.event?.metadata?.eventId, stream: `${proof.event?.stream_id}@${proof.event?.stream_version}` };
  if (!digest) return { intact: false, digest: { tree_size: 0, position: null, root: '', key_id: '', signed_at: '' }, events_checked: 0, first_mismatch: { ...at, reason: 'no digest: pass --digest FILE' } };
  const failure = digestFailure(digest, trusted);
  if (failure) return report(digest, 0, failure);
  const check = verifyEventProof(proof.event, proof, digest);
  return report(digest, 1, check.valid ? null : { ...at, reason: check.reason });
}

/** The leaf an export line commits to (for tests and tools). */
export function exportLineLeaf(line: ExportedEvent): string {
  return leafHash(loggedEventOf(line)).toString('hex');
}
