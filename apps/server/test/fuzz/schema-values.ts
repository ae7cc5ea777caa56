import fc from 'fast-check';
import type { FieldSchema, JsonKind } from './openapi-operations';
import { RawNumber } from './raw-json';

/**
 * Values derived from a {@link FieldSchema}: valid ones (what the schema admits, conservatively:
 * printable text, http URLs, safe integers) and invalid ones (what the schema refuses, unambiguously).
 * JSON values serve request bodies; text values serve query and path parameters.
 */

/** A real value of the test program for a parameter or field name (a card token for `card_token`, a PAN for `pan`). */
export type RealValues = (name: string) => string | undefined;

export interface Invalid {
  readonly value: unknown;
  /** What is wrong with it, for the counterexample. */
  readonly why: string;
  /** Words a refusal may name instead of the field (e.g. `nested` for JSON deeper than the server takes). */
  readonly orNames?: readonly string[];
}

/**
 * RFC 8259 section 6: integers beyond 2^53 - 1 are not interoperable; a JSON number past that, or one
 * that parses to Infinity, is refused whatever the schema's bounds.
 */
const UNSAFE_NUMBERS = [
  new RawNumber('9007199254740993'),
  new RawNumber('-9007199254740993'),
  new RawNumber('123456789012345678901234567890'),
  new RawNumber('1e400'),
  new RawNumber('-1e400'),
  1e308,
];
const UNSAFE_NUMBER_TEXT = ['9007199254740993', '99999999999999999999', '1e400', 'Infinity', '-Infinity', 'NaN'];

const UUID_FORMAT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_UUIDS = ['not-a-uuid', '0', 'e7bd0e6a0b364fb7a38e2ea7ad1c1f5d', 'e7bd0e6a-0b36-4fb7-a38e-2ea7ad1c1f5', '{e7bd0e6a-0b36-4fb7-a38e-2ea7ad1c1f5d}', 'e7bd0e6a-0b36-4fb7-a38e-2ea7ad1c1f5dz'];
const NOT_DATES = ['2026-02-30', '2026-13-01', '2026-1-5', '20260105', '22/11/2026', '2026-11-22T10:00:00Z', 'today', '0000-00-00', 'now', '2026-02-30T10:00:00Z', '2026-11-22T10:00:00'];
const NOT_INSTANTS = ['2026-11-22', '2026-11-22T10:00:00', '2026-13-01T00:00:00Z', '2026-02-30T10:00:00Z', '2026-11-22T25:00:00Z', 'now', '1700000000', 'Sun, 22 Nov 2026 10:00:00 GMT', 'today', '2026-02-30', '20260105'];
const NOT_URLS = ['not a url', 'http//x', '://x', '127.0.0.1:9/hooks', 'x'];
/** Text that is schema-valid but hostile to parsers and databases: SQL, controls, broken UTF-16, odd Unicode. */
export const HOSTILE_TEXT = ["' OR 1=1 --", '"; DROP TABLE events; --', 'a\u0000b', 'line\r\nX-Injected: 1', 'tab\there', '\ud800', 'x\udfff', '\u202eevil', '🎉', 'Ωmega', '%00', '<script>alert(1)</script>', ' '];

const SAFE_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -.éßΩ中'];
const FIRST_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'];

// ------------------------------------------------------------------ valid

/** A valid JSON value; plain: the plainest one (required properties only, real tokens only, never null). */
export function validJson(schema: FieldSchema, name: string, real: RealValues, plain = false): fc.Arbitrary<unknown> {
  const value = validOfKinds(schema, name, real, 'json', plain);
  if (plain) return value;
  return schema.nullable ? fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) }) : value;
}

/** A valid value written as query or path text. */
export function validText(schema: FieldSchema, name: string, real: RealValues): fc.Arbitrary<string> {
  return validOfKinds(schema, name, real, 'text', false).map(String);
}

function validOfKinds(schema: FieldSchema, name: string, real: RealValues, as: 'json' | 'text', plain: boolean): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if (schema.kinds.length === 0) return as === 'json' ? plainJsonValue(2) : fc.string({ unit: fc.constantFrom(...SAFE_CHARACTERS), maxLength: 10 });
  return fc.oneof(...schema.kinds.map((kind) => validOfKind(kind, schema, name, real, as, plain)));
}

function validOfKind(kind: JsonKind, schema: FieldSchema, name: string, real: RealValues, as: 'json' | 'text', plain: boolean): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return validString(schema, name, real, plain);
    case 'integer':
      return validInteger(schema.minimum ?? -(2 ** 31), schema.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (as === 'text') throw new Error(`${name}: array parameters are not fuzzed yet`);
      return fc.array(validJson(schema.items ?? { kinds: [], nullable: false }, `${name}[]`, real, plain), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 4, 4)),
      });
    case 'object':
      if (as === 'text') throw new Error(`${name}: object parameters are not fuzzed yet`);
      return validObject(schema, name, real, plain);
  }
}

/**
 * Free-form JSON a body of ours takes as valid (an auth rule's parameters): numbers written as integers
 * (integer-literals.ts refuses any other wherever it stands), text of safe characters and keys that
 * are not Object.prototype's (the hostile-input checks refuse control characters and those keys at any
 * depth, before the route is looked at).
 */
function plainJsonValue(maxDepth: number): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(fc.string({ unit: fc.constantFrom(...SAFE_CHARACTERS), maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null));
  if (maxDepth === 0) return scalar;
  const key = fc.stringMatching(/^[a-z]{1,8}$/).filter((name) => !(name in Object.prototype));
  const inner = plainJsonValue(maxDepth - 1);
  return fc.oneof(scalar, fc.array(inner, { maxLength: 3 }), fc.dictionary(key, inner, { maxKeys: 3 }));
}

/** A valid object: its required properties, and (unless plain) any of the others. */
/** Mostly everyday magnitudes (an amount of cents that a card's limit lets through), sometimes the whole range. */
function validInteger(min: number, max: number): fc.Arbitrary<number> {
  const low = Math.max(min, Math.min(0, max));
  const everyday = fc.integer({ min: low, max: Math.min(max, low + 10_000) });
  return fc.oneof({ weight: 3, arbitrary: everyday }, { weight: 1, arbitrary: fc.integer({ min, max }) });
}

export function validObject(schema: FieldSchema, name: string, real: RealValues, plain = false): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {}).filter(([key]) => !plain || (schema.required ?? []).includes(key));
  if (properties.length === 0) return schema.openObject ? fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/).filter((name) => !(name in Object.prototype)), plainJsonValue(1), { maxKeys: 3 }) : fc.constant({});
  const model = Object.fromEntries(properties.map(([key, child]) => [key, validJson(child, name ? `${name}.${key}` : key, real, plain)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in model) }) as fc.Arbitrary<Record<string, unknown>>;
}

function validString(schema: FieldSchema, name: string, real: RealValues, plain = false): fc.Arbitrary<string> {
  const generated = generatedString(schema);
  const token = real(leafOf(name));
  if (token !== undefined && plain) return fc.constant(token);
  if (token !== undefined) return fc.oneof({ weight: 4, arbitrary: fc.constant(token) }, { weight: 1, arbitrary: generated });
  return generated;
}

function generatedString(schema: FieldSchema): fc.Arbitrary<string> {
  const fits = (text: string) => text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? Infinity);
  if (schema.oneOfFormats) return fc.oneof(...schema.oneOfFormats.map((format) => generatedString({ ...schema, oneOfFormats: undefined, format })));
  switch (schema.format) {
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date':
      return someDate().map((date) => date.toISOString().slice(0, 10));
    case 'date-time':
      return fc.tuple(someDate(), fc.boolean()).map(([date, millis]) => (millis ? date.toISOString() : date.toISOString().replace(/\.\d{3}Z$/, 'Z')));
    case 'uri':
      return fc.tuple(fc.constantFrom('http', 'https'), fc.stringMatching(/^[a-z0-9]{1,12}$/)).map(([scheme, segment]) => `${scheme}://127.0.0.1:9/${segment}`);
  }
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(fits);
  const cap = Math.min(schema.maxLength ?? 30, 30);
  const text = fc
    .tuple(fc.constantFrom(...FIRST_CHARACTERS), fc.string({ unit: fc.constantFrom(...SAFE_CHARACTERS), maxLength: cap }))
    .map(([first, rest]) => (first + rest).slice(0, cap))
    .filter(fits);
  const arbitraries = [text];
  if ((schema.minLength ?? 0) === 0) arbitraries.push(fc.constant(''));
  if (schema.maxLength !== undefined) arbitraries.push(fc.constant('x'.repeat(schema.maxLength)));
  return fc.oneof(...arbitraries);
}

function someDate(): fc.Arbitrary<Date> {
  return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true });
}

// ------------------------------------------------------------------ invalid

/**
 * Values the schema refuses at this node (the node's own kind and keywords; its properties are
 * targets of their own). Null when nothing can be invalid here (a schema that admits any JSON).
 */
export function invalidJson(schema: FieldSchema, name: string, real: RealValues): fc.Arbitrary<Invalid> | null {
  const options: fc.Arbitrary<Invalid>[] = [...wrongKinds(schema)];
  if (schema.kinds.includes('string')) options.push(...invalidStrings(schema, name, real));
  if (schema.kinds.includes('integer') || schema.kinds.includes('number')) options.push(...invalidNumbers(schema));
  if (schema.kinds.includes('array')) options.push(...invalidArrays(schema, name, real));
  return options.length ? fc.oneof(...options) : null;
}

/** Text the parameter's schema refuses. Null when any text is valid. */
export function invalidText(schema: FieldSchema, name: string, real: RealValues): fc.Arbitrary<Invalid> | null {
  const options: fc.Arbitrary<Invalid>[] = [];
  const numeric = schema.kinds.includes('integer') || schema.kinds.includes('number');
  if (numeric && !schema.kinds.includes('string')) {
    const notNumbers = ['abc', '', ' 7', '7 ', '0x10', '1e3', '1,5', 'true', '[]', '{}', ...UNSAFE_NUMBER_TEXT];
    if (!schema.kinds.includes('number')) notNumbers.push('1.5', '2.0', '-0.5');
    options.push(fc.constantFrom(...notNumbers).map((value) => ({ value, why: 'not an integer' })));
    options.push(...outOfRange(schema).map((arbitrary) => arbitrary.map(({ value, why }) => ({ value: String(value), why }))));
    if (outside(schema, 0)) options.push(fc.constant({ value: '-0', why: '-0 is out of range' }));
  }
  if (schema.kinds.includes('boolean') && !schema.kinds.includes('string')) options.push(fc.constantFrom('yes', 'maybe', '', '2', 'TRUE ').map((value) => ({ value, why: 'not true or false' })));
  if (schema.kinds.includes('string')) options.push(...invalidStrings(schema, name, real));
  return options.length ? fc.oneof(...options) : null;
}

const WRONG_KIND_VALUES: Record<JsonKind | 'null', fc.Arbitrary<Invalid>> = {
  string: fc.constantFrom('x', '', '42', 'true', 'null', '{}').map((value) => ({ value, why: 'a string' })),
  integer: fc.integer({ min: -1000, max: 1000 }).map((value) => ({ value, why: 'a number' })),
  number: fc.constantFrom(0.5, 1.5, -2.25, 100.01).map((value) => ({ value, why: 'a fraction' })),
  boolean: fc.boolean().map((value) => ({ value, why: 'a boolean' })),
  object: fc.oneof(
    fc.constantFrom<Record<string, unknown>>({}, { a: 1 }, { value: 'x' }).map((value) => ({ value, why: 'an object' })),
    fc.integer({ min: 2, max: 40 }).map((depth) => ({ value: nestedObject(depth), why: `an object nested ${depth} deep`, orNames: ['nested', 'deep'] })),
  ),
  array: fc.constantFrom<unknown[]>([], [1], ['x', {}], [[[]]]).map((value) => ({ value, why: 'an array' })),
  null: fc.constant({ value: null, why: 'null' }),
};

function wrongKinds(schema: FieldSchema): fc.Arbitrary<Invalid>[] {
  if (schema.kinds.length === 0) return [];
  const has = (kind: JsonKind) => schema.kinds.includes(kind);
  const wrong: (JsonKind | 'null')[] = [];
  if (!has('string')) wrong.push('string');
  if (!has('integer') && !has('number')) wrong.push('integer');
  if (!has('number')) wrong.push('number');
  if (!has('boolean')) wrong.push('boolean');
  if (!has('object')) wrong.push('object');
  if (!has('array')) wrong.push('array');
  if (!schema.nullable) wrong.push('null');
  return wrong.map((kind) => WRONG_KIND_VALUES[kind]);
}

function nestedObject(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = level % 3 === 2 ? [value] : { a: value };
  return value;
}

function invalidStrings(schema: FieldSchema, name: string, real: RealValues): fc.Arbitrary<Invalid>[] {
  const options: fc.Arbitrary<Invalid>[] = [];
  if (schema.enum?.length) {
    const members = schema.enum.map(String);
    const near = members.flatMap((member) => [member.toLowerCase(), member.toUpperCase(), ` ${member}`, `${member}x`, member.slice(0, -1)]);
    options.push(
      fc
        .oneof(fc.constantFrom(...near, '', 'UNKNOWN'), fc.stringMatching(/^[A-Za-z_.]{1,16}$/))
        .filter((value) => !members.includes(value))
        .map((value) => ({ value, why: `not one of ${members.join(', ')}` })),
    );
  }
  const formats: Record<string, string[]> = { uuid: NOT_UUIDS, date: NOT_DATES, 'date-time': NOT_INSTANTS, uri: NOT_URLS };
  // A value wrong for a union of formats must be wrong for each: the values every member's list holds.
  const notFormat = schema.oneOfFormats
    ? schema.oneOfFormats.map((format) => formats[format] ?? []).reduce((common, list) => common.filter((value) => list.includes(value)))
    : schema.format
      ? formats[schema.format]
      : undefined;
  if (notFormat) {
    const more = schema.format === 'uuid' ? [fc.uuid().map((uuid) => uuid.replace(/-/g, '')), fc.uuid().map((uuid) => `${uuid}0`)] : [];
    options.push(fc.oneof(fc.constantFrom('', ...notFormat), ...more).map((value) => ({ value, why: `not a ${schema.oneOfFormats?.join(' or ') ?? schema.format}` })));
  }
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern, 'u');
    const near = validString({ ...schema, maxLength: undefined }, name, real);
    options.push(
      fc
        .oneof(
          fc.constantFrom('', ' ', 'x', '٣٣٣٣', '1234\n'),
          fc.string({ maxLength: 20 }),
          near.map((value) => `${value}x`),
          near.map((value) => ` ${value}`),
          near.map((value) => value.slice(1)),
        )
        .filter((value) => !pattern.test(value))
        .map((value) => ({ value, why: `does not match ${schema.pattern}` })),
    );
  }
  if (schema.maxLength !== undefined) {
    const max = schema.maxLength;
    options.push(fc.integer({ min: max + 1, max: max + 3000 }).map((length) => ({ value: 'x'.repeat(length), why: `longer than ${max}` })));
  }
  if ((schema.minLength ?? 0) > 0) options.push(fc.constant({ value: '', why: `shorter than ${schema.minLength}` }));
  return options;
}

function invalidNumbers(schema: FieldSchema): fc.Arbitrary<Invalid>[] {
  const options = [...outOfRange(schema), fc.constantFrom(...UNSAFE_NUMBERS).map((value) => ({ value, why: 'beyond 2^53 - 1' }))];
  if (outside(schema, 0)) options.push(fc.constant({ value: new RawNumber('-0'), why: '-0 is out of range' }));
  return options;
}

function outOfRange(schema: FieldSchema): fc.Arbitrary<Invalid>[] {
  const options: fc.Arbitrary<Invalid>[] = [];
  const { minimum, maximum } = schema;
  if (minimum !== undefined) options.push(fc.integer({ min: Math.max(minimum - 1_000_000, -Number.MAX_SAFE_INTEGER), max: minimum - 1 }).map((value) => ({ value, why: `below ${minimum}` })));
  if (maximum !== undefined) options.push(fc.integer({ min: maximum + 1, max: Math.min(maximum + 1_000_000, Number.MAX_SAFE_INTEGER) }).map((value) => ({ value, why: `above ${maximum}` })));
  return options;
}

function outside(schema: FieldSchema, value: number): boolean {
  return (schema.minimum !== undefined && value < schema.minimum) || (schema.maximum !== undefined && value > schema.maximum);
}

function invalidArrays(schema: FieldSchema, name: string, real: RealValues): fc.Arbitrary<Invalid>[] {
  const options: fc.Arbitrary<Invalid>[] = [];
  const items = schema.items ?? { kinds: [], nullable: false };
  const validItem = validJson(items, `${name}[]`, real);
  if (schema.maxItems !== undefined) {
    const max = schema.maxItems;
    options.push(fc.array(validItem, { minLength: max + 1, maxLength: max + 5 }).map((value) => ({ value, why: `more than ${max} items` })));
  }
  if ((schema.minItems ?? 0) > 0) options.push(fc.constant({ value: [], why: `fewer than ${schema.minItems} items` }));
  const badItem = invalidJson(items, `${name}[]`, real);
  if (badItem) {
    options.push(
      fc.tuple(fc.array(validItem, { maxLength: 3 }), badItem, fc.nat()).map(([good, bad, at]) => {
        const value = [...good];
        value.splice(at % (good.length + 1), 0, bad.value);
        return { value, why: `an item is ${bad.why}`, orNames: bad.orNames };
      }),
    );
  }
  return options;
}

// ------------------------------------------------------------------ path tokens

/** Path segments that are no UUID; never empty, `.` or `..` (the URL would name another route). */
export function notUuidSegments(): fc.Arbitrary<string> {
  return fc
    .oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
      fc.constantFrom(...NOT_UUIDS, ...HOSTILE_TEXT, 'null', 'undefined', '-1', '0', 'x'.repeat(3000)),
      fc.uuid().map((uuid) => uuid.replace(/-/g, '')),
    )
    .filter((text) => text !== '' && text !== '.' && text !== '..' && !UUID_FORMAT.test(text));
}

/** Percent escapes no decoder accepts, written raw into the path. */
export const BROKEN_ESCAPES = ['%', '%zz', '%E0%A4%A', '%FF', '%C0%AF', '%ED%A0%80'];

export function leafOf(path: string): string {
  return path.replace(/\[\]$/, '').split('.').pop() ?? path;
}
