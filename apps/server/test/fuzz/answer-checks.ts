import type { ApiAnswer } from '../test-ledger';
import type { FuzzCase } from './request-cases';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ERROR_BODY_KEYS = ['debugging_request_id', 'message', 'token'];

/** The end of the event log: a refused call must leave it where it was. */
export interface LogEnd {
  readonly count: number;
  readonly lastPosition: string;
  /**
   * After the call: the correlation id (the request id of the call that wrote it, null if it has none)
   * of every event appended since the `before` end. Background writers (webhook retries marking a
   * subscription failing) append while a call runs, under ids of their own.
   */
  readonly appendedBy?: readonly (string | null)[];
}

/**
 * What is wrong with an answer to a fuzz case (empty when nothing is): a 5xx; an error that is not
 * `{debugging_request_id, message}`; a status other than the case expects; a refusal whose message does
 * not name what was broken, or says it more than once (`;`-separated); an event written by a refused call (save the declined authorization's
 * 422, which records the transaction by design and says so with its token).
 */
export function problemsOf(fuzzCase: FuzzCase, answer: ApiAnswer, before: LogEnd, after: LogEnd): string[] {
  const problems: string[] = [];
  const { status, body } = answer;
  if (status >= 500) problems.push(`answered ${status}, a fault of the server`);
  const expected = fuzzCase.expect;
  if (expected.status !== undefined && status !== expected.status) problems.push(`answered ${status} where ${expected.status} was due`);
  if (status < 400) return problems;

  const message: unknown = body?.message;
  if (!/^application\/json\b/.test(answer.headers.get('content-type') ?? '')) problems.push(`error answered as ${answer.headers.get('content-type')}, not JSON`);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) problems.push('error body is not a JSON object');
  else {
    const extra = Object.keys(body).filter((key) => !ERROR_BODY_KEYS.includes(key));
    if (extra.length) problems.push(`error body has fields beyond {debugging_request_id, message}: ${extra.join(', ')}`);
    if (typeof body.debugging_request_id !== 'string' || !UUID.test(body.debugging_request_id)) problems.push('debugging_request_id is not a UUID');
    if (typeof message !== 'string' || message.trim() === '') problems.push('message is not a non-empty string');
  }
  const namesOn = expected.namesOn ?? expected.status ?? 400;
  if (expected.names && status === namesOn && typeof message === 'string' && !expected.names.some((name) => names(message, name))) {
    problems.push(`message names none of ${expected.names.map((name) => JSON.stringify(name)).join(', ')}`);
  }
  if (expected.once && status === namesOn && typeof message === 'string') {
    const sayings = message.split(/;\s+/).filter((part) => expected.names!.some((name) => names(part, name)));
    if (sayings.length > 1) problems.push(`message says ${sayings.length} things about one broken field`);
  }
  const declinedWithRecord = status === 422 && typeof body?.token === 'string';
  const requestId = typeof body?.debugging_request_id === 'string' ? body.debugging_request_id : undefined;
  // Without attribution every appended event counts; with it, only the call's own (or unattributed) ones.
  const byThisCall = (after.appendedBy ?? [null]).filter((id) => id === null || id === requestId);
  const appended = after.count !== before.count || after.lastPosition !== before.lastPosition;
  if (!declinedWithRecord && appended && byThisCall.length > 0) {
    problems.push(`a refused call wrote events: ${before.count} -> ${after.count} events, last position ${before.lastPosition} -> ${after.lastPosition}`);
  }
  return problems;
}

/** Whether the message names `name` as a whole word (so `page` is not found in `page_size`), any case. */
export function names(message: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`, 'i').test(message);
}
