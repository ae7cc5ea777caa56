import { createHash } from 'node:crypto';
import type { EventMetadata, EventStore, NewEvent, RecordedEvent } from './event-store.port';
import type { ChainHead } from './stream-fold-cache';

/**
 * Tamper evidence. Every event's metadata carries `hash`: SHA-256 over the previous event's hash and
 * the event's own canonical content (stream, version, type, schema version, data, metadata). Editing,
 * removing or reordering any recorded event breaks the chain of its stream from that event on, and
 * `verifyChains` names the first event that no longer matches.
 */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * Members rewritten as they are written: the value of any member named in `keys`, at any depth, is
 * written as `rewrite(value)` gives it (left out when that is undefined), and not rewritten again
 * inside. The ledger commitment writes secret fields by their hash this way, without copying the
 * event first.
 */
export interface MemberRewrite {
  readonly keys: ReadonlySet<string>;
  rewrite(value: unknown): unknown;
}

/**
 * JSON with object keys sorted at every depth, so equal content always hashes equally. Every append,
 * every leaf of the ledger commitment and every verified event goes through it, so it is written for
 * speed: loops over keys sorted in place, member names quoted once per process, numbers and booleans
 * written without JSON.stringify. Its output is unchanged, byte for byte (the spec holds the first version as
 * the reference): undefined members are left out, an undefined array item leaves an empty slot, a
 * Date is an object without keys.
 */
export function canonicalJson(value: unknown, members?: MemberRewrite): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return scalarJson(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      const item = canonicalJson(value[i], members) as string | undefined;
      if (item !== undefined) out += item;
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = sortedNames(Object.keys(record));
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    // A rewritten value is written as it is: the rewrite is not applied again inside it.
    const rewritten = members !== undefined && members.keys.has(key);
    const inner = rewritten ? members.rewrite(record[key]) : record[key];
    if (inner === undefined) continue;
    if (out.length > 1) out += ',';
    out += quotedName(key);
    out += ':';
    out += rewritten ? canonicalJson(inner) : canonicalJson(inner, members);
  }
  return `${out}}`;
}

/**
 * Names in code-unit order, as Array.prototype.sort orders strings. An event's objects have a dozen
 * members or so, where an insertion sort in place took half the time of sort() (measured on
 * authorization events); a large object is left to sort().
 */
function sortedNames(names: string[]): string[] {
  if (names.length > 32) return names.sort();
  for (let i = 1; i < names.length; i++) {
    const name = names[i];
    let j = i - 1;
    while (j >= 0 && names[j] > name) {
      names[j + 1] = names[j];
      j--;
    }
    names[j + 1] = name;
  }
  return names;
}

/** JSON.stringify's text for a scalar; undefined (a function, a symbol, undefined) where it gives none. */
function scalarJson(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}

/**
 * Member names repeat (every event has the same few dozen): each is quoted once. Bounded, so that a
 * stream of unusual names cannot grow the process; past the bound names are quoted each time.
 */
const QUOTED_NAMES = new Map<string, string>();
const MAX_QUOTED_NAMES = 4096;

function quotedName(name: string): string {
  let quoted = QUOTED_NAMES.get(name);
  if (quoted === undefined) {
    quoted = JSON.stringify(name);
    if (QUOTED_NAMES.size < MAX_QUOTED_NAMES) QUOTED_NAMES.set(name, quoted);
  }
  return quoted;
}

interface HashedContent {
  readonly streamId: string;
  readonly streamVersion: number;
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export function eventHash(previousHash: string, event: HashedContent): string {
  const { hash: _hash, previousHash: _previous, ...metadata } = event.metadata;
  const content = canonicalJson({
    stream_id: event.streamId,
    stream_version: event.streamVersion,
    type: event.type,
    schema_version: event.schemaVersion,
    data: event.data,
    metadata,
  });
  return createHash('sha256').update(previousHash).update('\n').update(content).digest('hex');
}

/** The link a stream's next event chains to. */
export function chainHeadOf(recorded: RecordedEvent): ChainHead {
  return { streamVersion: recorded.streamVersion, hash: String(recorded.metadata.hash ?? GENESIS_HASH), position: recorded.position };
}

/**
 * Chains new events onto the end of a stream: `last` is the head of the stream's last recorded event
 * (null for a new stream); the events get consecutive versions after it and chained hashes.
 */
export function chainEvents(streamId: string, last: ChainHead | null, events: readonly NewEvent[]): NewEvent[] {
  let previousHash = last?.hash || GENESIS_HASH;
  let version = last ? last.streamVersion : -1;
  return events.map((event) => {
    version += 1;
    const metadata = { ...event.metadata, previousHash };
    const hash = eventHash(previousHash, { streamId, streamVersion: version, type: event.type, schemaVersion: event.schemaVersion, data: event.data, metadata });
    previousHash = hash;
    return { ...event, metadata: { ...metadata, hash } };
  });
}

export interface ChainBreak {
  readonly streamId: string;
  readonly streamVersion: number;
  readonly eventId: string;
  readonly reason: string;
}

export interface ChainReport {
  readonly events: number;
  readonly streams: number;
  /** The first event, in log order, whose hash or link does not match; null for an intact store. */
  readonly firstBreak: ChainBreak | null;
}

/** Checks events in log order (a store, or an export being read back). */
export class ChainVerifier {
  private readonly heads = new Map<string, { version: number; hash: string }>();
  private count = 0;
  firstBreak: ChainBreak | null = null;

  check(event: HashedContent & { readonly metadata: EventMetadata }): void {
    this.count++;
    if (this.firstBreak) return;
    const head = this.heads.get(event.streamId);
    const expectedVersion = head ? head.version + 1 : 0;
    const previousHash = head ? head.hash : GENESIS_HASH;
    const broken = (reason: string) => {
      this.firstBreak = { streamId: event.streamId, streamVersion: event.streamVersion, eventId: event.metadata.eventId, reason };
    };
    if (event.streamVersion !== expectedVersion) return broken(`expected version ${expectedVersion}, found ${event.streamVersion} (an event is missing)`);
    if (event.metadata.previousHash !== previousHash) return broken('its link to the previous event does not match (an earlier event was altered or removed)');
    const hash = eventHash(previousHash, event);
    if (event.metadata.hash !== hash) return broken('its content does not match its hash (the event was altered)');
    this.heads.set(event.streamId, { version: event.streamVersion, hash });
  }

  report(): ChainReport {
    return { events: this.count, streams: this.heads.size, firstBreak: this.firstBreak };
  }
}

export async function verifyChains(store: EventStore, onProgress?: (events: number) => void, batchSize = 1000): Promise<ChainReport> {
  const verifier = new ChainVerifier();
  let after: RecordedEvent['position'] | null = null;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: batchSize });
    if (batch.length === 0) break;
    for (const event of batch) verifier.check(event);
    after = batch[batch.length - 1].position;
    onProgress?.(verifier.report().events);
    if (verifier.firstBreak) break;
  }
  return verifier.report();
}
