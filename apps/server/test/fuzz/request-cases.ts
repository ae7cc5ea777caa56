import fc from 'fast-check';
import type { FieldSchema, Operation, Parameter } from './openapi-operations';
import { toJsonText } from './raw-json';
import { BROKEN_ESCAPES, HOSTILE_TEXT, Invalid, invalidJson, invalidText, leafOf, notUuidSegments, RealValues, validObject, validText } from './schema-values';

/**
 * The requests thrown at one operation, each built from a valid request with one thing broken (the
 * target), and what the answer must then be. The target names what was broken, so a refusal can be
 * checked for naming it.
 */

export interface FuzzRequest {
  readonly method: string;
  /** Path and query, already percent-encoded. */
  readonly url: string;
  readonly rawBody?: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The api-key sent as `api-key <KEY>`; null sends no Authorization header (unless headers has one). */
  readonly apiKey: string | null;
}

export interface Expectation {
  /** The status the answer must have; absent: any status but a 5xx. */
  readonly status?: number;
  /** When the answer has status {@link namesOn}, its message names one of these (whole words, any case). */
  readonly names?: readonly string[];
  /** Default: {@link status}, else 400. */
  readonly namesOn?: number;
  /** One thing was broken: the message says it once (one message per field, not one per violated rule). */
  readonly once?: boolean;
}

export interface FuzzCase {
  /** What was broken, stable across runs: `body:spend_limit.transaction`, `query-duplicate:page`… */
  readonly target: string;
  readonly why: string;
  readonly request: FuzzRequest;
  readonly expect: Expectation;
}

export interface ProgramUnderTest {
  readonly apiKey: string;
  readonly real: RealValues;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const JSON_TYPE = 'application/json';
const NOT_JSON_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=fuzz', 'application/xml', 'text/html; charset=utf-8'];
/** Past the JSON body limit (the gateway takes 100 kB), yet small enough to be sent quickly. */
const OVERSIZED_BYTES = 256 * 1024;
const NOT_OBJECT_BODIES = ['[]', '[{}]', '"text"', '42', 'true', 'null', '[1,2,3]'];
const MALFORMED_BODIES = ['{', '{"a":', '{a:1}', "{'a':1}", '{"a":1,}', '{"a":1}}', '{"a" 1}', '\u0000', 'nul', '{"a":"\\x"}', '{"a":01}', '{"a":NaN}', '{"a":.5}', '{"a":"\u0001"'];

/** Every target of an operation; each becomes a fast-check example, so each is sent at least once. */
export function targetsOf(operation: Operation, methodsOfPath: readonly string[]): string[] {
  // Field by field first, then what every operation shares (unknown parameters, method, api-key).
  const targets = ['valid'];
  for (const parameter of operation.pathParameters) {
    targets.push(`path-garbage:${parameter.name}`, `path-escape:${parameter.name}`);
    if (parameter.schema.format === 'uuid') targets.push(`path-unknown:${parameter.name}`);
  }
  for (const parameter of operation.queryParameters) {
    if (invalidText(parameter.schema, parameter.name, () => undefined)) targets.push(`query:${parameter.name}`);
    targets.push(`query-duplicate:${parameter.name}`, `query-nested:${parameter.name}`);
  }
  if (operation.body) {
    targets.push('body-not-object', 'body-malformed', 'body-empty', 'body-oversized', 'content-type');
    for (const location of locationsOf(operation.body)) {
      if (location.schema.kinds.includes('object') && location.schema.properties && !location.schema.openObject) targets.push(`body-unknown:${location.path}`);
      if (location.path === '') continue;
      if (invalidJson(location.schema, location.path, () => undefined)) targets.push(`body:${location.path}`);
      if (location.required) targets.push(`body-missing:${location.path}`);
      if (isFreeText(location.schema)) targets.push(`body-hostile:${location.path}`);
    }
  } else if (operation.method !== 'GET') {
    targets.push('body-undocumented');
  }
  targets.push('query-unknown');
  for (const method of METHODS) if (!methodsOfPath.includes(method)) targets.push(`method:${method}`);
  if (operation.secured) targets.push('auth-missing', 'auth-unknown', 'auth-bearer');
  return targets;
}

interface Location {
  /** Dotted, '' for the body itself. */
  readonly path: string;
  readonly schema: FieldSchema;
  readonly required: boolean;
}

/** The body, its properties, and theirs (objects nest; array items are their array's). */
function locationsOf(schema: FieldSchema, path = '', required = true): Location[] {
  const here: Location = { path, schema, required };
  const children = Object.entries(schema.properties ?? {}).flatMap(([name, child]) => locationsOf(child, path ? `${path}.${name}` : name, (schema.required ?? []).includes(name)));
  return [here, ...children];
}

function isFreeText(schema: FieldSchema): boolean {
  return schema.kinds.includes('string') && !schema.enum && !schema.format && !schema.oneOfFormats && !schema.pattern;
}

/** The case of one target, generated afresh each run. */
export function caseOf(operation: Operation, target: string, program: ProgramUnderTest): fc.Arbitrary<FuzzCase> {
  const [kind, subject = ''] = splitTarget(target);
  // The plainest valid request (required fields, real tokens) escapes the rules between fields that the
  // schema cannot state (exp_month without exp_year, a random PAN failing its Luhn check). Hostile text
  // may well be accepted, so it goes into the plainest: a refusal then comes from the text. Valid
  // requests are plainest half the time: random optional fields would make an approval rare.
  // A path naming nothing is asked with the plainest body too: random optional fields may break a rule
  // between fields (a product without an address), whose 400 is as right as the 404 the case is about.
  const plain = kind === 'body-hostile' || kind === 'path-unknown' ? fc.constant(true) : kind === 'valid' ? fc.boolean() : fc.constant(false);
  const valid = fc
    .tuple(
      plain.chain((plainest) => validParts(operation, program, plainest)),
      objectsOnTheWay(operation, kind, subject, program),
    )
    .map(([parts, fill]) => ({ ...parts, body: fill(parts.body) }));
  const build = (why: string, expect: Expectation, change: (parts: Parts) => Parts) =>
    valid.map((parts) => described({ target, why, expect, request: render(operation, change(parts), program) }));
  const named = (path: string, invalid?: Invalid): Expectation => ({ status: 400, names: [...new Set([path, leafOf(path), ...(invalid?.orNames ?? [])])], once: true });

  switch (kind) {
    case 'valid':
      return build('a valid request', {}, (parts) => parts);
    case 'path-garbage':
      return notUuidSegments().chain((segment) => build(`${subject} is not a UUID`, named(subject), (parts) => ({ ...parts, path: { ...parts.path, [subject]: encode(segment) } })));
    case 'path-escape':
      // The router cannot decode the segment, so it may name the broken text instead of the parameter.
      return fc.constantFrom(...BROKEN_ESCAPES).chain((escape) =>
        build(`${subject} has a broken percent escape`, { status: 400, names: [subject, escape] }, (parts) => ({ ...parts, path: { ...parts.path, [subject]: escape } })),
      );
    case 'path-unknown': {
      // Any UUID the document admits: `format: uuid` is every RFC 9562 version unless a pattern narrows it.
      const pattern = pathParameter(operation, subject).schema.pattern;
      const tokens = pattern ? fc.uuid().filter((uuid) => new RegExp(pattern, 'u').test(uuid)) : fc.uuid();
      return tokens.chain((token) => build(`${subject} names nothing of the program`, { status: 404 }, (parts) => ({ ...parts, path: { ...parts.path, [subject]: token } })));
    }
    case 'query': {
      const parameter = queryParameter(operation, subject);
      return invalidText(parameter.schema, subject, program.real)!.chain((invalid) =>
        build(`${subject} is ${invalid.why}`, named(subject, invalid), (parts) => ({ ...parts, query: [...without(parts.query, subject), [subject, String(invalid.value)]] })),
      );
    }
    case 'query-duplicate': {
      const parameter = queryParameter(operation, subject);
      const value = validText(parameter.schema, subject, program.real);
      return fc.tuple(value, value).chain(([first, second]) =>
        build(`${subject} given twice`, named(subject), (parts) => ({ ...parts, query: [...without(parts.query, subject), [subject, first], [subject, second]] })),
      );
    }
    case 'query-nested': {
      const parameter = queryParameter(operation, subject);
      return fc.tuple(validText(parameter.schema, subject, program.real), fc.constantFrom('[]', '[a]', '[0]', '[__proto__]', '.a')).chain(([value, suffix]) =>
        build(`${subject}${suffix} nests a parameter`, named(subject), (parts) => ({ ...parts, query: [...without(parts.query, subject), [`${subject}${suffix}`, value]] })),
      );
    }
    case 'query-unknown':
      return fc.tuple(unknownName(operation.queryParameters.map((parameter) => parameter.name)), fc.constantFrom('1', '', 'x', 'true')).chain(([name, value]) =>
        build(`${name} is no parameter of the operation`, named(name), (parts) => ({ ...parts, query: [...parts.query, [name, value]] })),
      );
    case 'body': {
      const location = bodyLocation(operation, subject);
      return invalidJson(location, subject, program.real)!.chain((invalid) =>
        build(`${subject} is ${invalid.why}`, named(subject, invalid), (parts) => ({ ...parts, body: setAt(parts.body, subject, invalid.value) })),
      );
    }
    case 'body-missing':
      return build(`${subject} (required) is missing`, named(subject), (parts) => ({ ...parts, body: deleteAt(parts.body, subject) }));
    case 'body-hostile':
      return fc.constantFrom(...HOSTILE_TEXT).chain((text) =>
        build(`${subject} is hostile text`, { names: [subject, leafOf(subject)], namesOn: 400 }, (parts) => ({ ...parts, body: setAt(parts.body, subject, text) })),
      );
    case 'body-unknown': {
      const location = bodyLocation(operation, subject);
      return fc.tuple(unknownName(Object.keys(location.properties ?? {})), fc.jsonValue({ maxDepth: 2 })).chain(([name, value]) => {
        const path = subject ? `${subject}.${name}` : name;
        return build(`${path} is no field of the body`, { status: 400, names: [path, name], once: true }, (parts) => ({
          ...parts,
          body: setAt(parts.body, path, value),
        }));
      });
    }
    case 'body-not-object':
      return fc.constantFrom(...NOT_OBJECT_BODIES).chain((raw) => build('the body is not an object', { status: 400, names: ['body'] }, (parts) => ({ ...parts, body: undefined, rawBody: raw })));
    case 'body-malformed':
      return fc.constantFrom(...MALFORMED_BODIES).chain((raw) => build('the body is not JSON', { status: 400, names: ['body', 'JSON'] }, (parts) => ({ ...parts, body: undefined, rawBody: raw })));
    case 'body-empty': {
      const required = operation.body?.required ?? [];
      const expect = required.length ? { status: 400, names: required } : {};
      return fc.constantFrom('', '{}').chain((raw) => build(`the body is ${raw === '' ? 'empty' : '{}'}`, expect, (parts) => ({ ...parts, body: undefined, rawBody: raw })));
    }
    case 'body-oversized':
      return build(`the body is over ${OVERSIZED_BYTES} bytes`, { status: 413, names: ['body'] }, (parts) => ({
        ...parts,
        body: { ...(parts.body as object), zz_padding: 'x'.repeat(OVERSIZED_BYTES) },
      }));
    case 'content-type':
      return fc.constantFrom(...NOT_JSON_TYPES).chain((type) => build(`JSON sent as ${type}`, { status: 415, names: ['Content-Type'] }, (parts) => ({ ...parts, contentType: type })));
    case 'body-undocumented':
      return fc.jsonValue({ maxDepth: 2 }).chain((body) => build('a body where the operation documents none', {}, (parts) => ({ ...parts, body })));
    case 'method':
      return build(`${subject} is not a method of ${operation.path}`, { status: 405, names: [subject] }, (parts) => ({ ...parts, method: subject, body: subject === 'GET' ? undefined : parts.body }));
    case 'auth-missing':
      return build('no Authorization header', { status: 401, names: ['Authorization'] }, (parts) => ({ ...parts, authorization: null }));
    case 'auth-unknown':
      return fc
        .oneof(fc.uuid({ version: 4 }).map((key) => `api-key ${key}`), fc.constantFrom('api-key', 'api-key ', 'Basic dXNlcjpwYXNz', 'api-key a b', ' '))
        .chain((header) => build(`Authorization: ${header}`, { status: 401 }, (parts) => ({ ...parts, authorization: header })));
    case 'auth-bearer':
      return build('the api-key sent as a Bearer token', { names: ['Authorization', 'api-key', 'Bearer'], namesOn: 401 }, (parts) => ({ ...parts, authorization: `Bearer ${program.apiKey}` }));
  }
  throw new Error(`unknown target ${target}`);
}

/** A case as the request it sends (long bodies cut), what was broken and what is due. */
export function describeCase(fuzzCase: FuzzCase): string {
  const { request, expect } = fuzzCase;
  const body = request.rawBody === undefined ? '' : ` ${request.rawBody.length > 400 ? `${request.rawBody.slice(0, 400)}… (${request.rawBody.length} characters)` : request.rawBody}`;
  const headers = Object.entries(request.headers).map(([name, value]) => ` [${name}: ${value}]`).join('');
  const due = `${expect.status ?? 'any status but 5xx'}${expect.names ? ` naming ${expect.names.join(' | ')}` : ''}`;
  return `${fuzzCase.target} (${fuzzCase.why}): ${request.method} ${request.url}${headers}${body} => ${due}`;
}

/** fast-check prints a counterexample with its toString method. */
function described(fuzzCase: FuzzCase): FuzzCase {
  return Object.assign(fuzzCase, { [fc.toStringMethod]: () => describeCase(fuzzCase) });
}

function splitTarget(target: string): [string, string?] {
  const colon = target.indexOf(':');
  return colon < 0 ? [target] : [target.slice(0, colon), target.slice(colon + 1)];
}

// ------------------------------------------------------------------ a valid request, and rendering it

interface Parts {
  readonly method: string;
  /** Path parameter values, percent-encoded. */
  readonly path: Readonly<Record<string, string>>;
  /** Query pairs, not yet encoded. */
  readonly query: readonly (readonly [string, string])[];
  readonly body?: unknown;
  /** Sent as is instead of body. */
  readonly rawBody?: string;
  readonly contentType?: string;
  /** undefined: the program's api-key; null: no header; a string: that header. */
  readonly authorization?: string | null;
}

/** The parameters in order, each dropped that the document says never goes with one kept before it. */
function apart(parameters: readonly Parameter[]): Parameter[] {
  const kept: Parameter[] = [];
  const excludes = (a: Parameter, b: Parameter) => a.notWith.includes(b.name) || b.notWith.includes(a.name);
  for (const parameter of parameters) if (!kept.some((other) => excludes(other, parameter))) kept.push(parameter);
  return kept;
}

/** A shipping address Lithic's rules accept (its country, ZIP and state agree; the printed names fit). */
const SHIPPING_ADDRESS = { first_name: 'Janet', last_name: 'Yellen', address1: '5 Broad Street', city: 'NEW YORK', state: 'NY', postal_code: '10001', country: 'USA' };

/**
 * The plainest body of the routes whose bodies hang together in ways a schema cannot state: an auth
 * rule's parameters are those of its type, and it applies to exactly one scope; a shipping address
 * goes with a PHYSICAL card, and its country, state and postal code agree.
 */
const PLAINEST_BODIES: Readonly<Record<string, Record<string, unknown>>> = {
  'POST /v2/auth_rules': { type: 'MERCHANT_LOCK', program_level: true, parameters: { merchants: [{ descriptor: 'FUZZ SHOP' }] } },
  'POST /v1/cards': { type: 'PHYSICAL', shipping_address: SHIPPING_ADDRESS },
  'POST /v1/card': { type: 'PHYSICAL', shipping_address: SHIPPING_ADDRESS },
  'POST /v1/cards/{card_token}/renew': { shipping_address: SHIPPING_ADDRESS },
  'POST /v1/cards/{card_token}/reissue': { shipping_address: SHIPPING_ADDRESS },
  'POST /v1/cards/{card_token}/convert_physical': { shipping_address: SHIPPING_ADDRESS },
};

function validParts(operation: Operation, program: ProgramUnderTest, plain: boolean): fc.Arbitrary<Parts> {
  const path = Object.fromEntries(operation.pathParameters.map((parameter) => [parameter.name, encode(program.real(parameter.name) ?? '')]));
  for (const [name, value] of Object.entries(path)) if (!value) throw new Error(`${operation.key}: the test program has no real value for path parameter ${name}`);
  type Pair = readonly [string, string];
  const query: fc.Arbitrary<Pair[]> = fc.subarray(plain ? [] : [...operation.queryParameters]).chain((chosen) => {
    const all = apart([...new Set([...operation.queryParameters.filter((parameter) => parameter.required), ...chosen])]);
    const pairs = all.map((parameter) => validText(parameter.schema, parameter.name, program.real).map((value): Pair => [parameter.name, value]));
    return pairs.length ? fc.tuple(...pairs) : fc.constant<Pair[]>([]);
  });
  const unstated = plain ? PLAINEST_BODIES[operation.key] : undefined;
  const body = unstated ? fc.constant(structuredClone(unstated)) : operation.body ? validObject(operation.body, '', program.real, plain) : fc.constant(undefined);
  return fc.record({ query, body }).map(({ query, body }) => ({ method: operation.method, path, query, body }));
}

function render(operation: Operation, parts: Parts, program: ProgramUnderTest): FuzzRequest {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => parts.path[name]);
  const query = parts.query.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
  const rawBody = parts.method === 'GET' ? undefined : (parts.rawBody ?? (parts.body === undefined ? undefined : toJsonText(parts.body)));
  const headers: Record<string, string> = {};
  if (rawBody !== undefined) headers['content-type'] = parts.contentType ?? JSON_TYPE;
  if (typeof parts.authorization === 'string') headers.authorization = parts.authorization;
  return { method: parts.method, url: query ? `${path}?${query}` : path, rawBody, headers, apiKey: parts.authorization === undefined ? program.apiKey : null };
}

/** encodeURIComponent, with unpaired surrogates written as the UTF-8 of U+FFFD (what a browser sends). */
export function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
}

// ------------------------------------------------------------------ helpers

function pathParameter(operation: Operation, name: string): Parameter {
  const parameter = operation.pathParameters.find((candidate) => candidate.name === name);
  if (!parameter) throw new Error(`${operation.key}: no path parameter ${name}`);
  return parameter;
}

function queryParameter(operation: Operation, name: string): Parameter {
  const parameter = operation.queryParameters.find((candidate) => candidate.name === name);
  if (!parameter) throw new Error(`${operation.key}: no query parameter ${name}`);
  return parameter;
}

function bodyLocation(operation: Operation, path: string): FieldSchema {
  const found = locationsOf(operation.body!).find((location) => location.path === path);
  if (!found) throw new Error(`${operation.key}: no body field ${path}`);
  return found.schema;
}

function without(query: Parts['query'], name: string): Parts['query'] {
  return query.filter(([key]) => key !== name);
}

/** A name no schema here uses, nor JavaScript's object internals would hide. */
function unknownName(known: readonly string[]): fc.Arbitrary<string> {
  return fc
    .oneof({ weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9_]{1,20}$/) }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'id', 'Type', 'extra_field') })
    .filter((name) => !known.includes(name));
}

type JsonObject = Record<string, unknown>;

function cloneObject(value: unknown): JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as JsonObject) } : {};
}

/** Sets a dotted path (creating objects on the way); own properties even for `__proto__`. */
function setAt(body: unknown, path: string, value: unknown): JsonObject {
  const [head, ...rest] = path.split('.');
  const copy = cloneObject(body);
  const next = rest.length ? setAt(copy[head], rest.join('.'), value) : value;
  Object.defineProperty(copy, head, { value: next, enumerable: true, writable: true, configurable: true });
  return copy;
}

function deleteAt(body: unknown, path: string): JsonObject {
  const [head, ...rest] = path.split('.');
  const copy = cloneObject(body);
  if (rest.length === 0) delete copy[head];
  else copy[head] = deleteAt(copy[head], rest.join('.'));
  return copy;
}

function getAt(body: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as JsonObject)[key] : undefined), body);
}

/**
 * The objects a nested target sits in, made present (a valid one where the body has none or null),
 * so that breaking `velocity_limit.window_seconds` breaks nothing else.
 */
function objectsOnTheWay(operation: Operation, kind: string, subject: string, program: ProgramUnderTest): fc.Arbitrary<(body: unknown) => unknown> {
  if (!operation.body || !kind.startsWith('body') || subject === '') return fc.constant((body: unknown) => body);
  const segments = subject.split('.');
  const depth = kind === 'body-unknown' ? segments.length : segments.length - 1;
  const prefixes = segments.slice(0, depth).map((_, index) => segments.slice(0, index + 1).join('.'));
  if (prefixes.length === 0) return fc.constant((body: unknown) => body);
  return fc.tuple(...prefixes.map((prefix) => validObject(bodyLocation(operation, prefix), prefix, program.real))).map((fills) => (body: unknown) => {
    let filled: unknown = body;
    prefixes.forEach((prefix, index) => {
      const present = getAt(filled, prefix);
      if (present === null || typeof present !== 'object' || Array.isArray(present)) filled = setAt(filled, prefix, fills[index]);
    });
    return filled;
  });
}
