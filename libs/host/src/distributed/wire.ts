import { HttpException } from '@nestjs/common';
import { MessageSeal } from '@ledger/card-vault';
import { Conflict, DomainError, DomainErrorKind, InvalidInput, NotFound } from '@ledger/domain';
import { CROSSING_ERRORS, ErrorClass, ErrorRegistry } from './error-registry';

/**
 * What goes over the wire between processes: commands, their results and their errors, as JSON that
 * comes back as the same values. Commands and results are plain data, but plain JSON would still
 * lose three things a handler can tell apart: `undefined` members (`{ memo: undefined }` is a change
 * of nothing, `Object.keys` sees it), Dates and bigints. Those travel tagged.
 */
const TAG = '__wire';

type Tagged = { [TAG]: 'undefined' } | { [TAG]: 'date'; value: string } | { [TAG]: 'bigint'; value: string };

export function toWire(value: unknown): unknown {
  if (value === undefined) return { [TAG]: 'undefined' };
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'bigint') return { [TAG]: 'bigint', value: value.toString() };
    return value;
  }
  if (value instanceof Date) return { [TAG]: 'date', value: value.toISOString() };
  if (Array.isArray(value)) return value.map(toWire);
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (typeof member === 'function') continue;
    out[key] = toWire(member);
  }
  return out;
}

export function fromWire(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(fromWire);
  const tagged = value as Partial<Tagged> & Record<string, unknown>;
  if (typeof tagged[TAG] === 'string') {
    if (tagged[TAG] === 'undefined') return undefined;
    if (tagged[TAG] === 'date') return new Date(String(tagged.value));
    if (tagged[TAG] === 'bigint') return BigInt(String(tagged.value));
  }
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) out[key] = fromWire(member);
  return out;
}

// ----------------------------------------------------------------------------------------- sealing

/**
 * What actually crosses NATS: a whole command or reply (already wire-encoded), sealed. Commands carry
 * PANs, CVVs and PINs, replies api-keys and card answers; sealing every message whole, rather than
 * the fields known to be secret today, leaves no field to forget. The context names the subject and
 * the direction, so a sealed command cannot be replayed as a reply or to another role.
 */
export interface SealedMessage {
  readonly sealed: string;
}

export function sealMessage(seal: MessageSeal, message: object, context: string): SealedMessage {
  return { sealed: seal.seal(JSON.stringify(message), context) };
}

/** The message inside, or MessageUnsealable (not sealed, another CARD_DATA_KEY, altered, another context). */
export function openMessage<T>(seal: MessageSeal, message: unknown, context: string): T {
  const sealed = (message as Partial<SealedMessage> | null)?.sealed;
  return JSON.parse(seal.open(typeof sealed === 'string' ? sealed : '', context)) as T;
}

// ------------------------------------------------------------------------------------------ errors

/** An error as it crosses the wire: enough to rebuild the same class with the same fields. */
export interface WireError {
  /** The stable code of its class (CROSSING_ERRORS); none for a fault of no registered class. */
  readonly code?: string;
  readonly name: string;
  readonly message: string;
  /** DomainError kind, so a code unknown to the receiver still maps to the same status. */
  readonly kind?: string;
  /** HttpException status and response body. */
  readonly httpStatus?: number;
  readonly httpResponse?: unknown;
  /** Own enumerable fields (field, transactionToken, ...), wire-encoded. */
  readonly fields: Record<string, unknown>;
  readonly stack?: string;
}

export function serializeError(error: unknown, registry: ErrorRegistry = CROSSING_ERRORS): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (key !== 'name' && key !== 'message' && key !== 'stack' && key !== 'response' && key !== 'status' && typeof value !== 'function') fields[key] = toWire(value);
  }
  return {
    code: registry.codeOf(error),
    name: error.name,
    message: error.message,
    kind: error instanceof DomainError ? error.kind : undefined,
    httpStatus: error instanceof HttpException ? error.getStatus() : undefined,
    httpResponse: error instanceof HttpException ? toWire(error.getResponse()) : undefined,
    fields,
    stack: error.stack,
  };
}

const KIND_BASES: Record<DomainErrorKind, ErrorClass> = { invalid: InvalidInput, not_found: NotFound, conflict: Conflict };

/**
 * The same error, as an instance of the class its code names (instanceof holds, so the HTTP edge maps
 * it exactly as if it had been thrown here). A DomainError whose code this process does not know
 * becomes its kind's base class with the same name, message and fields: same status, same body.
 * Anything else stays an unknown fault (500), as it would be in one process.
 */
export function rehydrateError(wire: WireError, origin: string, registry: ErrorRegistry = CROSSING_ERRORS): Error {
  const type = wire.code === undefined ? undefined : registry.classOf(wire.code);
  let error: Error;
  if (type === HttpException) {
    // Nest's class is rebuilt with its constructor: its status and response are not plain fields.
    error = new HttpException(fromWire(wire.httpResponse) as string | Record<string, unknown>, wire.httpStatus ?? 500);
  } else {
    // Built without its constructor, whose arguments are not on the wire: the fields are.
    const known = type ?? KIND_BASES[wire.kind as DomainErrorKind] ?? RemoteError;
    error = Object.create(known.prototype) as Error;
    Object.defineProperty(error, 'message', { value: wire.message, writable: true, configurable: true, enumerable: false });
    for (const [key, value] of Object.entries(wire.fields)) (error as unknown as Record<string, unknown>)[key] = fromWire(value);
  }
  Object.defineProperty(error, 'name', { value: wire.name, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(error, 'stack', {
    value: `${wire.stack ?? `${wire.name}: ${wire.message}`}\n    at <${origin}>`,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  return error;
}

/** A fault in another process of no registered class: answered as any fault is (500). */
export class RemoteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteError';
  }
}
