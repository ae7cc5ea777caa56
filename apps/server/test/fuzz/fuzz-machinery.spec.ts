import fc from 'fast-check';
import type { ApiAnswer } from '../test-ledger';
import { names, problemsOf } from './answer-checks';
import { FieldSchema, fieldSchema, operationsOf } from './openapi-operations';
import { RawNumber, toJsonText } from './raw-json';
import type { FuzzCase } from './request-cases';
import { invalidJson, invalidText, validJson, validText } from './schema-values';

/**
 * The fuzz suite's own parts, without a server: the generators keep their promise (valid values
 * conform to the schema, invalid ones do not, judged by an independent reading of the keywords), and
 * the answer checks catch each kind of wrong answer.
 */

const noReal = () => undefined;
const schema = (partial: Partial<FieldSchema>): FieldSchema => ({ kinds: [], nullable: false, ...partial });

/** A second, deliberately plain reading of the JSON Schema keywords the document uses. */
function conforms(s: FieldSchema, value: unknown): boolean {
  if (value instanceof RawNumber) value = Number(value.literal);
  if (value === null) return s.nullable;
  if (s.enum) return s.enum.includes(value as string);
  if (typeof value === 'number') {
    const integer = Number.isSafeInteger(value) && !Object.is(value, -0);
    const kindOk = (s.kinds.includes('integer') && integer) || (s.kinds.includes('number') && Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER);
    return kindOk && value >= (s.minimum ?? -Infinity) && value <= (s.maximum ?? Infinity);
  }
  if (typeof value === 'string') {
    if (!s.kinds.includes('string')) return false;
    if (value.length < (s.minLength ?? 0) || value.length > (s.maxLength ?? Infinity)) return false;
    if (s.pattern && !new RegExp(s.pattern, 'u').test(value)) return false;
    if (s.oneOfFormats) return s.oneOfFormats.some((format) => conforms({ ...s, oneOfFormats: undefined, format }, value));
    if (s.format === 'uuid') return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
    if (s.format === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(value) && isCalendarDay(value);
    if (s.format === 'date-time') return /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && isCalendarDay(value.slice(0, 10));
    if (s.format === 'uri') return /^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i.test(value);
    return true;
  }
  if (typeof value === 'boolean') return s.kinds.includes('boolean');
  if (Array.isArray(value)) {
    if (!s.kinds.includes('array') || value.length > (s.maxItems ?? Infinity) || value.length < (s.minItems ?? 0)) return false;
    return value.every((item) => conforms(s.items ?? schema({}), item));
  }
  if (!s.kinds.includes('object')) return false;
  const object = value as Record<string, unknown>;
  if ((s.required ?? []).some((key) => !(key in object))) return false;
  return Object.entries(object).every(([key, child]) => (s.properties && Object.hasOwn(s.properties, key) ? conforms(s.properties[key], child) : s.openObject === true));
}

function isCalendarDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
}

/** Query text read as its schema's kind would be, strictly. */
function conformsAsText(s: FieldSchema, text: string): boolean {
  if (s.kinds.includes('integer')) return /^-?(0|[1-9]\d*)$/.test(text) && text !== '-0' && conforms(s, Number(text));
  return conforms(s, text);
}

const SCHEMAS: Record<string, FieldSchema> = {
  amount: schema({ kinds: ['integer'], minimum: 1 }),
  pageSize: schema({ kinds: ['integer'], minimum: 1, maximum: 1000 }),
  memo: schema({ kinds: ['string'], maxLength: 1024 }),
  descriptor: schema({ kinds: ['string'], minLength: 1, maxLength: 255 }),
  pin: schema({ kinds: ['string'], pattern: '^\\d{4,12}$' }),
  state: schema({ kinds: ['string'], enum: ['OPEN', 'PAUSED'] }),
  token: schema({ kinds: ['string'], format: 'uuid' }),
  day: schema({ kinds: ['string'], format: 'date' }),
  instant: schema({ kinds: ['string'], format: 'date-time' }),
  dayOrInstant: schema({ kinds: ['string'], oneOfFormats: ['date', 'date-time'] }),
  url: schema({ kinds: ['string'], format: 'uri', maxLength: 2048 }),
  flag: schema({ kinds: ['boolean'] }),
  list: schema({ kinds: ['array'], maxItems: 3, items: schema({ kinds: ['string'], enum: ['a', 'b'] }) }),
  velocity: schema({
    kinds: ['object'],
    nullable: true,
    required: ['max'],
    properties: { max: schema({ kinds: ['integer'], minimum: 1, maximum: 100 }), window: schema({ kinds: ['integer'], minimum: 1 }) },
  }),
};

describe('value generators', () => {
  it.each(Object.entries(SCHEMAS))('%s: valid values conform, invalid ones do not', (name, s) => {
    for (const value of fc.sample(validJson(s, name, noReal), 300)) expect({ name, value, conforms: conforms(s, value) }).toEqual({ name, value, conforms: true });
    const invalid = invalidJson(s, name, noReal);
    expect(invalid).not.toBeNull();
    for (const { value, why } of fc.sample(invalid!, 300)) expect({ name, value, why, conforms: conforms(s, value) }).toEqual({ name, value, why, conforms: false });
  });

  it.each(['amount', 'pageSize', 'state', 'token', 'day', 'instant'])('%s as query text: valid text conforms, invalid text does not', (name) => {
    const s = SCHEMAS[name];
    for (const value of fc.sample(validText(s, name, noReal), 300)) expect({ name, value, conforms: conformsAsText(s, value) }).toEqual({ name, value, conforms: true });
    for (const { value, why } of fc.sample(invalidText(s, name, noReal)!, 300)) expect({ name, value, why, conforms: conformsAsText(s, String(value)) }).toEqual({ name, value, why, conforms: false });
  });

  it('uses the real token of the program for a parameter that names one', () => {
    const values = fc.sample(validJson(SCHEMAS.token, 'card_token', (field) => (field === 'card_token' ? 'the-card' : undefined)), 200);
    expect(values.filter((value) => value === 'the-card').length).toBeGreaterThan(100);
  });

  it('writes the numbers JSON.stringify cannot', () => {
    expect(toJsonText({ a: new RawNumber('1e400'), b: [new RawNumber('-0')], c: 'x' })).toBe('{"a":1e400,"b":[-0],"c":"x"}');
  });
});

describe('reading the document', () => {
  const document = {
    paths: {
      '/v1/things/{thing_token}': {
        patch: {
          security: [{ 'api-key': [] }],
          parameters: [
            { name: 'thing_token', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } },
            { name: 'as_of', in: 'query', schema: { type: 'string', format: 'date-time' } },
          ],
          requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        },
      },
      '/health': { get: {} },
    },
    components: {
      schemas: {
        Limit: { type: 'object', properties: { max: { type: 'integer', minimum: 1 } }, required: ['max'] },
        Thing: {
          type: 'object',
          properties: { limit: { anyOf: [{ $ref: '#/components/schemas/Limit' }, { type: 'null' }] }, tags: { type: ['array', 'null'], items: { type: 'string' } } },
        },
      },
    },
  };

  it('takes every operation with its parameters, body and security, refs and nullable unions resolved', () => {
    const [patch, health] = operationsOf(document);
    expect(patch).toMatchObject({ key: 'PATCH /v1/things/{thing_token}', secured: true, pathParameters: [{ name: 'thing_token', required: true }], queryParameters: [{ name: 'as_of' }] });
    expect(patch.body?.properties?.limit).toMatchObject({ kinds: ['object'], nullable: true, required: ['max'], properties: { max: { kinds: ['integer'], minimum: 1 } } });
    expect(patch.body?.properties?.tags).toMatchObject({ kinds: ['array'], nullable: true, items: { kinds: ['string'] } });
    expect(health).toMatchObject({ key: 'GET /health', secured: false, pathParameters: [], queryParameters: [], body: undefined });
  });

  it('refuses a schema it cannot fuzz instead of fuzzing it less', () => {
    expect(() => fieldSchema(document, { anyOf: [{ type: 'string' }, { type: 'integer' }] }, 'x')).toThrow(/union of 2/);
    expect(() => operationsOf({ paths: { '/x': { get: { parameters: [{ name: 'h', in: 'header', schema: {} }] } } } })).toThrow(/header/);
  });
});

describe('answer checks', () => {
  const id = '8a6f2f4e-0a51-4a5e-9f1e-1c2b3d4e5f60';
  const log = { count: 7, lastPosition: '7' };
  const fuzzCase = (expect: FuzzCase['expect']): FuzzCase => ({ target: 'body:amount', why: 'test', expect, request: { method: 'POST', url: '/x', headers: {}, apiKey: null } });
  const answer = (status: number, body: unknown, type = 'application/json; charset=utf-8'): ApiAnswer => ({ status, body, headers: new Headers({ 'content-type': type }) });
  const strict = fuzzCase({ status: 400, names: ['amount'], once: true });

  it('accepts a refusal that is the error body, names the field once and writes nothing', () => {
    expect(problemsOf(strict, answer(400, { debugging_request_id: id, message: 'amount must be an integer' }), log, log)).toEqual([]);
  });

  it.each([
    ['a 5xx', answer(500, { debugging_request_id: id, message: 'Internal error' }), log, /fault of the server/],
    ['another status', answer(200, {}), log, /answered 200 where 400/],
    ['no request id', answer(400, { message: 'amount must be an integer' }), log, /debugging_request_id/],
    ['an empty message', answer(400, { debugging_request_id: id, message: ' ' }), log, /non-empty/],
    ['more fields', answer(400, { debugging_request_id: id, message: 'amount bad', statusCode: 400 }), log, /beyond/],
    ['not JSON', answer(400, 'amount bad', 'text/html'), log, /not JSON/],
    ['a message naming another field', answer(400, { debugging_request_id: id, message: 'amount_limit must be set' }), log, /names none of "amount"/],
    ['one field said twice', answer(400, { debugging_request_id: id, message: 'amount must be an integer; amount must not be less than 1' }), log, /2 things/],
    ['a write', answer(400, { debugging_request_id: id, message: 'amount bad' }), { count: 8, lastPosition: '8' }, /wrote events/],
  ])('flags %s', (_, given, after, problem) => {
    expect(problemsOf(strict, given, log, after).join('; ')).toMatch(problem);
  });

  it('tells the call\'s own writes from those of background writers by their correlation id', () => {
    const refusal = answer(400, { debugging_request_id: id, message: 'amount bad' });
    const other = '6f1c1d9e-8f5a-4c1e-9b7d-2a3b4c5d6e7f';
    expect(problemsOf(strict, refusal, log, { count: 8, lastPosition: '8', appendedBy: [other] })).toEqual([]);
    expect(problemsOf(strict, refusal, log, { count: 9, lastPosition: '9', appendedBy: [other, id] }).join()).toMatch(/wrote events/);
    expect(problemsOf(strict, refusal, log, { count: 8, lastPosition: '8', appendedBy: [null] }).join()).toMatch(/wrote events/);
  });

  it('lets a declined authorization record its transaction, and only when it carries the token', () => {
    const after = { count: 9, lastPosition: '9' };
    const loose = fuzzCase({});
    expect(problemsOf(loose, answer(422, { debugging_request_id: id, message: 'declined', token: id }), log, after)).toEqual([]);
    expect(problemsOf(loose, answer(422, { debugging_request_id: id, message: 'declined' }), log, after).join()).toMatch(/wrote events/);
  });

  it('finds names as whole words only, in any case', () => {
    expect(names('page must be an integer', 'page')).toBe(true);
    expect(names('page_size must be an integer', 'page')).toBe(false);
    expect(names('spend_limit.transaction must not be less than 0', 'spend_limit.transaction')).toBe(true);
    expect(names("Failed to decode param '%zz'", '%zz')).toBe(true);
    expect(names('content-type must be application/json', 'Content-Type')).toBe(true);
  });
});
