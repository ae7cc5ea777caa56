import { inclusionProof, type Leaves, verifyInclusion } from './merkle-tree';
import { leafHash, type LoggedEvent } from './leaf-hash';
import type { SignedDigest } from './signed-digest';

/**
 * An event as an export line and a proof carry it: the stored content in snake_case, the position as
 * "commit/prepare". The same shape `admin export` writes, one per line.
 */
export interface ExportedEvent {
  readonly stream_id: string;
  readonly stream_version: number;
  readonly position: string;
  readonly type: string;
  readonly schema_version: number;
  readonly data: unknown;
  readonly metadata: LoggedEvent['metadata'];
  readonly recorded_at?: string;
}

export function loggedEventOf(event: ExportedEvent): LoggedEvent {
  return { streamId: event.stream_id, streamVersion: event.stream_version, position: event.position, type: event.type, schemaVersion: event.schema_version, data: event.data, metadata: event.metadata };
}

export function exportedEventOf(event: LoggedEvent, recordedAt?: string): ExportedEvent {
  return { stream_id: event.streamId, stream_version: event.streamVersion, position: event.position, type: event.type, schema_version: event.schemaVersion, data: event.data, metadata: event.metadata, ...(recordedAt ? { recorded_at: recordedAt } : {}) };
}

/** The audit path of one leaf in the tree a digest signs. Hashes in lower-case hex. */
export interface InclusionPath {
  readonly leaf_index: number;
  readonly tree_size: number;
  readonly audit_path: readonly string[];
}

/** Everything needed to check one event against a saved digest, without the rest of the log. */
export interface EventProof extends InclusionPath {
  readonly event: ExportedEvent;
  readonly leaf_hash: string;
}

export function inclusionPathOf(leaves: Leaves, leafIndex: number, treeSize: number): InclusionPath {
  return { leaf_index: leafIndex, tree_size: treeSize, audit_path: inclusionProof(leaves, leafIndex, treeSize).map((hash) => hash.toString('hex')) };
}

export type ProofCheck = { readonly valid: true } | { readonly valid: false; readonly reason: string };

/**
 * Recomputes the event's leaf hash from its content and walks the audit path to the digest's root.
 * The digest's signature is checked separately (verifyDigest), once per digest.
 */
export function verifyEventProof(event: ExportedEvent, path: InclusionPath, digest: Pick<SignedDigest, 'tree_size' | 'root'>): ProofCheck {
  if (path.tree_size !== digest.tree_size) return { valid: false, reason: `the proof is for a tree of ${path.tree_size} events, the digest covers ${digest.tree_size}` };
  if (!Array.isArray(path.audit_path) || !path.audit_path.every((hash) => /^[0-9a-f]{64}$/.test(hash))) return { valid: false, reason: 'the audit path is not a list of 64-digit hex hashes' };
  const leaf = leafHash(loggedEventOf(event));
  const ok = verifyInclusion(leaf, path.leaf_index, path.tree_size, path.audit_path.map((hash) => Buffer.from(hash, 'hex')), Buffer.from(digest.root, 'hex'));
  return ok ? { valid: true } : { valid: false, reason: `the event's content and audit path do not lead to the digest's root (the event at leaf ${path.leaf_index} was altered, moved, or is not in the log the digest signs)` };
}
