/** An event as GET /v1/cards/{token}/events answers it. */
export interface AuditEvent {
  stream_id: string;
  stream_version: number;
  position: string;
  event_id: string;
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown> & { hash?: string; previousHash?: string };
  recorded_at?: string;
}

export type ChainStatus =
  | { kind: 'verified' }
  | { kind: 'linked'; why: string }
  | { kind: 'broken'; why: string };

const GENESIS_HASH = '0'.repeat(64);

/** JSON with keys sorted at every depth: the bytes the service hashed (docs/audit.md). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item) ?? '').join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .filter((key) => record[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`)
    .join(',')}}`;
}

function redactedFields(data: Record<string, unknown>): string[] {
  return Object.entries(data)
    .filter(([, value]) => value !== null && typeof value === 'object' && (value as { redacted?: unknown }).redacted === true)
    .map(([key]) => key);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Each event's place in its stream's SHA-256 chain, checked in the browser: versions count from 0,
 * each `previousHash` is the hash before it, and the hash is recomputed from the content. An event
 * whose secret fields the API shows redacted cannot be rehashed here (the hash covers the stored
 * value), so it is reported as linked only; `admin verify` checks those.
 */
export async function checkChain(events: readonly AuditEvent[]): Promise<ChainStatus[]> {
  const statuses: ChainStatus[] = [];
  let previousHash = GENESIS_HASH;
  let broken = false;
  for (const [index, event] of events.entries()) {
    const { hash, previousHash: link, ...metadata } = event.metadata;
    if (broken) statuses.push({ kind: 'broken', why: 'follows a break' });
    else if (event.stream_version !== index) statuses.push({ kind: 'broken', why: `version ${event.stream_version} where ${index} was expected` });
    else if (link !== previousHash) statuses.push({ kind: 'broken', why: 'previousHash is not the hash of the event before' });
    else if (redactedFields(event.data).length > 0) statuses.push({ kind: 'linked', why: `link checked; ${redactedFields(event.data).join(', ')} redacted, so the hash is not recomputed here` });
    else if (!globalThis.crypto?.subtle) statuses.push({ kind: 'linked', why: 'link checked; this page is not in a secure context, so no SHA-256 here' });
    else {
      const content = canonicalJson({ stream_id: event.stream_id, stream_version: event.stream_version, type: event.type, schema_version: event.schema_version, data: event.data, metadata });
      const recomputed = await sha256Hex(`${previousHash}\n${content}`);
      statuses.push(recomputed === hash ? { kind: 'verified' } : { kind: 'broken', why: 'content does not hash to its hash' });
    }
    broken ||= statuses[index].kind === 'broken';
    previousHash = String(hash ?? '');
  }
  return statuses;
}
