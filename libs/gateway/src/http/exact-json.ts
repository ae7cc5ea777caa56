import { configure } from 'safe-stable-stringify';

/**
 * JSON text for every answer the API writes, with integers of any size exact.
 *
 * JSON numbers have no size limit, but a JavaScript number has 53 bits: totals (a card's pending
 * amount is a sum over any number of transactions) are kept as bigint and must reach the client as
 * their exact digits. JSON.stringify refuses a bigint (TypeError) and Node 20 has no JSON.rawJSON, so
 * a value holding one is written by safe-stable-stringify, which writes a bigint as its digits and
 * otherwise what JSON.stringify writes: keys in their own order, toJSON honoured, undefined and
 * functions left out of objects and null in arrays, non-finite numbers as null, and a circular
 * structure refused with a TypeError.
 */
export const writeExactJson = configure({ bigint: true, deterministic: false, circularValue: TypeError });

/** The JSON text of a value, like JSON.stringify (undefined for undefined), bigints included. */
export function writeJson(value: unknown): string | undefined {
  try {
    // Most answers hold no bigint: the native writer is faster and, for them, writes the same text.
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return writeExactJson(value);
  }
}
