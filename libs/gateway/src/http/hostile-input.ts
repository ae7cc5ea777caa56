import { RequestInvalid } from './errors';

/** No request body of ours nests deeper than a few levels; JSON deeper than this is refused. */
export const MAX_JSON_DEPTH = 32;

/** Never field names of ours, and the keys of prototype pollution. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** C0 control characters and DEL. Memos, descriptors and every other text field are single-line text. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/**
 * Checks of a parsed JSON body and the query string that class-validator cannot make (it sees values
 * after JSON.parse, and PostgreSQL would refuse some of them with a 500): nesting deeper than
 * {@link MAX_JSON_DEPTH}, numbers that lost precision in parsing (integers beyond 2^53, and 1e400
 * which parses to Infinity), control characters and unpaired UTF-16 surrogates in any string or key.
 * Iterative, so a 10,000-level body costs nothing but a 400. Throws RequestInvalid naming the field.
 */
export function inspectRequestInput(request: { body?: unknown; query?: unknown }): void {
  inspect(request.body, 'body');
  inspect(request.query, 'query');
}

function inspect(root: unknown, rootName: string): void {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    const name = path || rootName;
    if (typeof value === 'string') checkText(value, name);
    else if (typeof value === 'number') {
      if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
        throw new RequestInvalid(`${name} must be a number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER} (2^53 - 1)`);
      }
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_JSON_DEPTH) throw new RequestInvalid(`Request ${rootName} is nested more than ${MAX_JSON_DEPTH} levels deep`);
      for (const [key, child] of Object.entries(value)) {
        const childPath = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
        checkText(key, JSON.stringify(childPath));
        // class-transformer drops these keys without a word instead of reporting them as unknown.
        if (FORBIDDEN_KEYS.has(key)) throw new RequestInvalid(`${childPath} is not a known field`);
        pending.push({ value: child, path: childPath, depth: depth + 1 });
      }
    }
  }
}

function checkText(text: string, name: string): void {
  if (CONTROL_CHARACTERS.test(text)) throw new RequestInvalid(`${name} must not contain control characters (U+0000 to U+001F, U+007F)`);
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) throw new RequestInvalid(`${name} must be valid Unicode text (no unpaired surrogates)`);
}
