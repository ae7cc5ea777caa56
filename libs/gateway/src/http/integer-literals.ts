import { RequestInvalid } from './errors';

/**
 * Every number a request body of ours takes is an integer (cents, counts, milliseconds), and
 * JSON.parse rounds before any check can see what was written: `0.99999999999999999` arrives as 1,
 * `1e-400` as 0, `1e2` as 100. So a number is judged as written: one with a fraction part or an
 * exponent that parses to an integer is refused here, naming its field. One that parses to a
 * fraction (`1.5`) or to Infinity (`1e400`) is left to the field's own validation and the
 * hostile-input checks, which refuse it with their own messages.
 *
 * Cheap on the common path: a JSON number has a fraction or an exponent only if a digit is followed
 * by `.`, `e` or `E` somewhere in the text; only a body where that occurs (inside a string, too) is
 * scanned token by token to find the field.
 */
export function refuseNonIntegerLiterals(text: string): void {
  if (!/\d[.eE]/.test(text)) return;
  const name = firstNonIntegerField(text);
  if (name !== null) throw new RequestInvalid(`${name} must be an integer, written without a fraction or an exponent`);
}

/** The JSON tokens the scan follows; whitespace, `:` and the literals true, false, null fall between them. */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(\.\d+)?([eE][-+]?\d+)?|[{}[\],]/g;

/**
 * The path (as the hostile-input checks name it: `a.b`, `a[0]`) of the first number written with a
 * fraction or an exponent that parses to an integer, or null. `text` is JSON that JSON.parse accepted.
 */
export function firstNonIntegerField(text: string): string | null {
  // The containers the scan is inside, outermost first, each with the member being read (key or index).
  const open: { array: boolean; at: string | number }[] = [];
  let expectingKey = false;
  for (const [token, fraction, exponent] of text.matchAll(TOKEN)) {
    const top = open[open.length - 1];
    if (token === '{' || token === '[') {
      open.push({ array: token === '[', at: 0 });
      expectingKey = token === '{';
    } else if (token === '}' || token === ']') open.pop();
    else if (token === ',') {
      if (top.array) top.at = (top.at as number) + 1;
      else expectingKey = true;
    } else if (token.startsWith('"')) {
      if (expectingKey) top.at = JSON.parse(token) as string;
      expectingKey = false;
    } else if ((fraction !== undefined || exponent !== undefined) && Number.isInteger(Number(token))) {
      return open.reduce((path, { array, at }) => (array ? `${path}[${at}]` : path ? `${path}.${at}` : String(at)), '');
    }
  }
  return null;
}
