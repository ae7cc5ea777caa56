import { canonicalJson } from './hash-chain';

/** The first version, kept as the reference the faster one must match byte for byte: stored hashes depend on it. */
function referenceCanonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(referenceCanonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${referenceCanonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('canonicalJson', () => {
  it.each([
    ['nested objects and arrays', { b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } }],
    ['event-shaped data', { transactionToken: 't', amount: 4200, merchant: { mcc: '5999', descriptor: 'Café 東京 🎉', city: '' }, at: '2026-11-22T10:00:00.000Z' }],
    ['undefined members and array items', { keep: 1, drop: undefined, list: [1, undefined, 3], tail: [undefined] }],
    ['keys that sort by code unit, not locale', { b: 1, B: 2, a: 3, _: 4, 'é': 5, '10': 6, '9': 7 }],
    ['escapes in keys and values', { 'quo"te': 'line\nbreak\u0007', '\u2028': '\\' }],
    ['a Date, which has no own keys', { when: new Date(0) }],
    ['scalars', [0, -1.5, 1e21, '', true, false, null]],
    ['empty containers', { o: {}, a: [] }],
    ['an object too large for the small-object sort', Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${(i * 7919) % 40}`, i]))],
    ['keys sharing prefixes', { ab: 1, a: 2, abc: 3, b: 4, aa: 5, '': 6 }],
  ])('matches the reference byte for byte: %s', (_, value) => {
    expect(canonicalJson(value)).toBe(referenceCanonicalJson(value));
  });

  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: { y: 1, x: [{ q: 1, p: 2 }] }, a: 0 })).toBe('{"a":0,"b":{"x":[{"p":2,"q":1}],"y":1}}');
  });
});
