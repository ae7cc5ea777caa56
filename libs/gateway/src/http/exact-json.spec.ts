import fc from 'fast-check';
import { writeExactJson, writeJson } from './exact-json';

/** What the exact writer must write: JSON.stringify's text with each bigint's digits where it stood. */
function expectedText(value: unknown): string | undefined {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? `${marker}${item}` : item));
  return text?.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

describe('exact JSON', () => {
  const max = Number.MAX_SAFE_INTEGER;

  it('writes a bigint as its exact digits, also past 2^53 where a number would round', () => {
    expect(writeJson(27021597764222973n)).toBe('27021597764222973');
    expect(writeJson({ pending: 27021597764222973n })).toBe('{"pending":27021597764222973}');
    expect(JSON.stringify({ pending: Number(27021597764222973n) })).toBe('{"pending":27021597764222972}'); // what it replaces
  });

  it('writes negative bigints, zero and huge ones', () => {
    expect(writeJson([-1n, 0n, -27021597764222973n, 10n ** 40n])).toBe('[-1,0,-27021597764222973,10000000000000000000000000000000000000000]');
  });

  it('writes bigints nested in objects and arrays, keeping key order', () => {
    expect(writeJson({ token: 'abc', totals: [{ settled: 9007199254740993n, bounced: 0n }], page: 1 })).toBe(
      '{"token":"abc","totals":[{"settled":9007199254740993,"bounced":0}],"page":1}',
    );
  });

  it('leaves ordinary numbers as JSON.stringify writes them', () => {
    const numbers = { safe: max, negative: -max, fraction: 0.1, tiny: 1e-7, huge: 1e21, minusZero: -0, nan: NaN, infinite: -Infinity, big: 1n };
    expect(writeJson(numbers)).toBe('{"safe":9007199254740991,"negative":-9007199254740991,"fraction":0.1,"tiny":1e-7,"huge":1e+21,"minusZero":0,"nan":null,"infinite":null,"big":1}');
  });

  it('leaves strings as they are, digits, quotes and control characters included', () => {
    const strings = { digits: '27021597764222973', quoted: '"9007199254740993"', escapes: 'a\n\t\u0000"\\', unicode: 'é😀', count: 3n };
    expect(writeJson(strings)).toBe(`{"digits":"27021597764222973","quoted":"\\"9007199254740993\\"","escapes":"a\\n\\t\\u0000\\"\\\\","unicode":"é😀","count":3}`);
  });

  it('leaves out undefined and functions in objects, writes null for them in arrays, and honours toJSON', () => {
    const value = { gone: undefined, fn: () => 1, when: new Date('2026-01-02T03:04:05.000Z'), list: [undefined, () => 1, 2n], custom: { toJSON: () => ({ n: 5n }) } };
    expect(writeJson(value)).toBe('{"when":"2026-01-02T03:04:05.000Z","list":[null,null,2],"custom":{"n":5}}');
    expect(writeJson(undefined)).toBeUndefined();
  });

  it('refuses a circular structure as JSON.stringify does', () => {
    const loop: Record<string, unknown> = { n: 1n };
    loop.self = loop;
    expect(() => writeJson(loop)).toThrow(TypeError);
  });

  it('writes the same text as JSON.stringify for any JSON value without bigints, on either path', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(writeJson(value)).toBe(JSON.stringify(value));
        expect(writeExactJson(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it('writes any JSON value with bigints in it as JSON.stringify would with the digits in place', () => {
    const withBigints = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.bigInt(),
        fc.jsonValue({ maxDepth: 0 }),
        fc.array(tie('value')),
        fc.dictionary(fc.string(), tie('value')),
      ),
    })).value;
    fc.assert(
      fc.property(withBigints, (value) => {
        expect(writeJson(value)).toBe(expectedText(value));
      }),
    );
  });
});
