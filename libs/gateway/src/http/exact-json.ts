/**
 * JSON text for every answer the API writes, with integers of any size exact.
 *
 * JSON numbers have no size limit, but a JavaScript number has 53 bits: totals (a card's pending
 * amount is a sum over any number of transactions) are kept as bigint and must reach the client as
 * their exact digits. JSON.stringify refuses a bigint (TypeError) and Node 20 has no JSON.rawJSON,
 * so this writer writes a bigint as its digits and otherwise writes exactly what JSON.stringify
 * writes (toJSON honoured, undefined and functions left out of objects and null in arrays, non-finite
 * numbers as null).
 */

/** Already written JSON text, put in verbatim (a stored answer replayed as it was first written). */
export class RawJson {
  constructor(readonly text: string) {}

  /** JSON.stringify cannot write it: refusing makes writeJson take the exact path. */
  toJSON(): never {
    throw new TypeError('RawJson is written by writeJson only');
  }
}

/** The JSON text of a value, like JSON.stringify (undefined for undefined), bigints and RawJson included. */
export function writeJson(value: unknown): string | undefined {
  try {
    // Most answers hold no bigint: the native writer is faster and, for them, writes the same text.
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return writeExactJson(value);
  }
}

/** The exact writer on its own: what writeJson falls back to when a value holds a bigint or RawJson. */
export function writeExactJson(value: unknown): string | undefined {
  return write(value, '', new Set());
}

function write(input: unknown, key: string, ancestors: Set<object>): string | undefined {
  let value = input;
  if (value instanceof RawJson) return value.text;
  if (isObject(value) && typeof (value as { toJSON?: unknown }).toJSON === 'function') value = (value as { toJSON(key: string): unknown }).toJSON(key);
  if (value instanceof RawJson) return value.text;
  // Boxed primitives are written as their primitive, as JSON.stringify does.
  if (value instanceof Number || value instanceof String || value instanceof Boolean || value instanceof BigInt) value = value.valueOf();
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object':
      return value === null ? 'null' : writeContainer(value, ancestors);
    default:
      // undefined, functions and symbols: no JSON text of their own.
      return undefined;
  }
}

function writeContainer(value: object, ancestors: Set<object>): string {
  if (ancestors.has(value)) throw new TypeError('Converting circular structure to JSON');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((item, index) => write(item, String(index), ancestors) ?? 'null').join(',')}]`;
    const members: string[] = [];
    for (const name of Object.keys(value)) {
      const text = write((value as Record<string, unknown>)[name], name, ancestors);
      if (text !== undefined) members.push(`${JSON.stringify(name)}:${text}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}
