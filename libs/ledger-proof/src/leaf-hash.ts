import { createHash, hash } from 'node:crypto';
import { replaceSecretFields, SECRET_EVENT_FIELDS } from '@ledger/contracts';
import { canonicalJson, type EventMetadata, type MemberRewrite } from '@ledger/event-store';
import type { Hash } from './merkle-tree';

/**
 * One event as the ledger-wide commitment sees it: everything that is stored, including the
 * per-stream `hash`/`previousHash` in metadata, and the event's global position ("commit/prepare").
 * Its place in the tree is its rank in global-position order, so the position and the rank together
 * pin the event to one place in the log: moving, removing or inserting an event changes the root.
 */
export interface LoggedEvent {
  readonly streamId: string;
  readonly streamVersion: number;
  /** "<commit>/<prepare>", as formatPosition writes it. */
  readonly position: string;
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

/** What the audit API shows for a secret field: the SHA-256 of its stored value's canonical JSON. */
export interface RedactedValue {
  readonly redacted: true;
  readonly sha256: string;
}

export function redacted(stored: unknown): RedactedValue {
  return { redacted: true, sha256: createHash('sha256').update(canonicalJson(stored)).digest('hex') };
}

function isRedacted(value: unknown): value is RedactedValue {
  return typeof value === 'object' && value !== null && (value as RedactedValue).redacted === true && typeof (value as RedactedValue).sha256 === 'string';
}

/**
 * The data as the leaf commits to it: each secret field (SECRET_EVENT_FIELDS) by the SHA-256 of its
 * stored value rather than the value, so that the stored event (the operator's export) and the
 * audit API's redacted event give the same leaf, and a proof never has to carry a PAN's ciphertext.
 * A field that holds nothing (null) stays as it is, as the audit API shows it.
 */
export function committedData(data: unknown): unknown {
  return replaceSecretFields(data, committedSecret);
}

/** A secret field's value as the leaf commits to it: the hash of what is stored, or nothing or a marker as it stands. */
function committedSecret(stored: unknown): unknown {
  return stored === null || stored === undefined || isRedacted(stored) ? stored : redacted(stored);
}

/** committedData's replacement, applied while the leaf's JSON is written instead of on a copy. */
const COMMITTED_SECRET_FIELDS: MemberRewrite = { keys: SECRET_EVENT_FIELDS, rewrite: committedSecret };

/**
 * The leaf's canonical JSON (keys sorted at every depth, hash-chain.ts) of the event's stored
 * content, secret fields as committedData shows them. The same text as
 * canonicalJson({ ..., data: committedData(event.data), ... }), written without the copies: the
 * tree follower hashes every event of the log (issue 17's cost to authorizations).
 */
function leafJson(event: LoggedEvent): string {
  // The members in canonical (sorted) order. As canonicalJson does, a member without a value is left out
  // (a proof file or an export line is anyone's input).
  const members: ReadonlyArray<readonly [string, string | undefined]> = [
    ['"data":', canonicalJson(event.data, COMMITTED_SECRET_FIELDS)],
    ['"event_id":', canonicalJson(event.metadata?.eventId)],
    ['"metadata":', canonicalJson(event.metadata)],
    ['"position":', canonicalJson(event.position)],
    ['"schema_version":', canonicalJson(event.schemaVersion)],
    ['"stream_id":', canonicalJson(event.streamId)],
    ['"stream_version":', canonicalJson(event.streamVersion)],
    ['"type":', canonicalJson(event.type)],
  ];
  let out = '{';
  for (const [name, json] of members) {
    if (json === undefined) continue;
    if (out.length > 1) out += ',';
    out += name + json;
  }
  return `${out}}`;
}

/** The leaf's bytes: the UTF-8 of leafJson. */
export function leafContent(event: LoggedEvent): Buffer {
  return Buffer.from(leafJson(event), 'utf8');
}

/**
 * SHA-256(0x00 || leafContent(event)), RFC 9162's leaf hash. The 0x00 prefix is the UTF-8 of U+0000,
 * so the whole input is one string, hashed in one call.
 */
export function leafHash(event: LoggedEvent): Hash {
  return hash('sha256', `\u0000${leafJson(event)}`, 'buffer');
}
