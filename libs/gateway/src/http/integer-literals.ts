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
  if (!MAYBE_NON_INTEGER.test(text)) return;
  const name = firstNonIntegerField(text);
  if (name !== null) throw new RequestInvalid(`${name} must be an integer, written without a fraction or an exponent`);
}

const MAYBE_NON_INTEGER = /\d[.eE]/;
const NUMBER = /-?\d+(\.\d+)?([eE][-+]?\d+)?/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;

interface Container {
  readonly array: boolean;
  /** The key of the member being read (objects) or the index of the element (arrays). */
  at: string | number | null;
  readonly path: string;
}

/**
 * The path (as the hostile-input checks name it: `a.b`, `a[0]`) of the first number written with a
 * fraction or an exponent that parses to an integer, or null. `text` is JSON that JSON.parse accepted.
 */
export function firstNonIntegerField(text: string): string | null {
  const stack: Container[] = [];
  let expectingKey = false;
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char === '"') {
      STRING.lastIndex = index;
      const literal = STRING.exec(text)![0];
      index += literal.length;
      if (expectingKey) {
        stack[stack.length - 1].at = JSON.parse(literal) as string;
        expectingKey = false;
      }
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      NUMBER.lastIndex = index;
      const match = NUMBER.exec(text)!;
      if ((match[1] !== undefined || match[2] !== undefined) && Number.isInteger(Number(match[0]))) return pathOf(stack);
      index += match[0].length;
    } else {
      if (char === '{' || char === '[') {
        const path = stack.length === 0 ? '' : pathOf(stack);
        stack.push({ array: char === '[', at: char === '[' ? 0 : null, path });
        expectingKey = char === '{';
      } else if (char === '}' || char === ']') {
        stack.pop();
      } else if (char === ',') {
        const top = stack[stack.length - 1];
        if (top.array) top.at = (top.at as number) + 1;
        else expectingKey = true;
      }
      index += 1;
    }
  }
  return null;
}

function pathOf(stack: Container[]): string {
  const top = stack[stack.length - 1];
  if (!top) return 'body';
  if (top.array) return `${top.path}[${top.at}]`;
  return top.path ? `${top.path}.${top.at}` : String(top.at);
}
