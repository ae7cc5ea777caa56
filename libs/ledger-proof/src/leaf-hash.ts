import { createHash } from 'node:crypto';
import { replaceSecretFields } from '@ledger/contracts';
import { canonicalJson, type EventMetadata } from '@ledger/event-store';
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
  return replaceSecretFields(data, (stored) => (stored === null || stored === undefined || isRedacted(stored) ? stored : redacted(stored)));
}

/**
 * The leaf's bytes: the UTF-8 canonical JSON (keys sorted at every depth, hash-chain.ts) of the
 * event's stored content, secret fields as committedData shows them.
 */
export function leafContent(event: LoggedEvent): Buffer {
  return Buffer.from(
    canonicalJson({
      stream_id: event.streamId,
      stream_version: event.streamVersion,
      position: event.position,
      event_id: event.metadata.eventId,
      type: event.type,
      schema_version: event.schemaVersion,
      data: committedData(event.data),
      metadata: event.metadata,
    }),
    'utf8',
  );
}

const LEAF_PREFIX = Buffer.from([0x00]);

/** SHA-256(0x00 || leafContent(event)), RFC 9162's leaf hash. */
export function leafHash(event: LoggedEvent): Hash {
  return createHash('sha256').update(LEAF_PREFIX).update(leafContent(event)).digest();
}
