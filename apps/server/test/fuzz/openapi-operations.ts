/**
 * The operations of an OpenAPI 3.1 document as the fuzz suite needs them: method, path, parameters
 * and request body, every schema resolved (`$ref`, nullable `anyOf`) into a {@link FieldSchema}.
 * A schema shape this reader does not understand is an error, never silently fuzzed less.
 */

export type JsonKind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/** The JSON Schema keywords the generators read, with `nullable` made explicit. */
export interface FieldSchema {
  /** Empty: any JSON at all (nothing can be of the wrong kind). */
  readonly kinds: readonly JsonKind[];
  readonly nullable: boolean;
  readonly enum?: readonly (string | number | boolean)[];
  readonly format?: string;
  /** A string in any one of these formats (a `oneOf` of formatted strings, such as date | date-time). */
  readonly oneOfFormats?: readonly string[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly properties?: Readonly<Record<string, FieldSchema>>;
  readonly required?: readonly string[];
  /** Whether properties not listed are allowed (true only when the document says so). */
  readonly openObject?: boolean;
  readonly items?: FieldSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
}

export interface Parameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly schema: FieldSchema;
  /** `x-not-with`: parameters this one is never sent with (a cursor and `page`); a valid request keeps them apart. */
  readonly notWith: readonly string[];
}

export interface Operation {
  /** `POST /v1/cards`. */
  readonly key: string;
  readonly method: string;
  /** With `{name}` placeholders, as the document writes it. */
  readonly path: string;
  readonly pathParameters: readonly Parameter[];
  readonly queryParameters: readonly Parameter[];
  /** The application/json request body, if the operation documents one. */
  readonly body?: FieldSchema;
  /** Whether the operation names a security requirement (an api-key). */
  readonly secured: boolean;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

type Json = Record<string, any>;

export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((raw: Json) => parameterOf(document, raw, `${method} ${path}`));
      const content = operation.requestBody?.content as Json | undefined;
      if (content && !content['application/json']) throw new Error(`${method} ${path}: request body without application/json (${Object.keys(content)})`);
      const bodySchema = content?.['application/json']?.schema;
      const security = operation.security ?? document.security ?? [];
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path'),
        queryParameters: parameters.filter((parameter) => parameter.in === 'query'),
        body: bodySchema ? fieldSchema(document, bodySchema, `${method} ${path} body`) : undefined,
        secured: security.length > 0,
      });
    }
  }
  return operations;
}

function parameterOf(document: Json, raw: Json, where: string): Parameter {
  const parameter = raw.$ref ? resolveRef(document, raw.$ref) : raw;
  if (parameter.in !== 'path' && parameter.in !== 'query') throw new Error(`${where}: parameter ${parameter.name} in ${parameter.in} is not fuzzed yet`);
  return {
    name: parameter.name,
    in: parameter.in,
    required: parameter.required === true,
    schema: fieldSchema(document, parameter.schema ?? {}, `${where} ${parameter.name}`),
    notWith: parameter['x-not-with'] ?? [],
  };
}

function resolveRef(document: Json, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`external $ref ${ref}`);
  const target = ref
    .slice(2)
    .split('/')
    .reduce<Json | undefined>((node, segment) => node?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  if (!target) throw new Error(`unresolved $ref ${ref}`);
  return target;
}

const KINDS: readonly JsonKind[] = ['string', 'integer', 'number', 'boolean', 'object', 'array'];

/** Resolves one schema (and everything under it) into a {@link FieldSchema}. */
export function fieldSchema(document: Json, raw: Json, where: string, depth = 0): FieldSchema {
  if (depth > 20) throw new Error(`${where}: schema nests deeper than 20 levels (a cycle?)`);
  if (raw.$ref) return fieldSchema(document, { ...resolveRef(document, raw.$ref), ...withoutKeys(raw, ['$ref']) }, where, depth + 1);
  if (raw.allOf) {
    const merged = (raw.allOf as Json[]).reduce((all, part) => ({ ...all, ...(part.$ref ? resolveRef(document, part.$ref) : part) }), withoutKeys(raw, ['allOf']));
    return fieldSchema(document, merged, where, depth + 1);
  }
  const union = raw.anyOf ?? raw.oneOf;
  if (union) {
    const members = union as Json[];
    const nonNull = members.filter((member) => member.type !== 'null');
    if (nonNull.length > 1 && nonNull.every((member) => member.type === 'string' && typeof member.format === 'string' && Object.keys(member).length === 2)) {
      const inner = fieldSchema(document, { ...withoutKeys(raw, ['anyOf', 'oneOf']), type: 'string' }, where, depth + 1);
      return { ...inner, oneOfFormats: nonNull.map((member) => member.format as string), nullable: inner.nullable || nonNull.length < members.length };
    }
    if (nonNull.length !== 1) throw new Error(`${where}: a union of ${nonNull.length} non-null schemas is not fuzzed yet`);
    const inner = fieldSchema(document, { ...withoutKeys(raw, ['anyOf', 'oneOf']), ...nonNull[0] }, where, depth + 1);
    return { ...inner, nullable: inner.nullable || nonNull.length < members.length };
  }
  const types: string[] = raw.type === undefined ? [] : Array.isArray(raw.type) ? raw.type : [raw.type];
  const enumValues: unknown[] | undefined = raw.enum;
  let kinds = types.filter((type): type is JsonKind => (KINDS as string[]).includes(type));
  if (kinds.length === 0 && raw.properties) kinds = ['object'];
  if (kinds.length === 0 && enumValues) kinds = [...new Set(enumValues.filter((value) => value !== null).map((value) => kindOf(value)))];
  const unknownTypes = types.filter((type) => type !== 'null' && !(KINDS as string[]).includes(type));
  if (unknownTypes.length) throw new Error(`${where}: unknown type ${unknownTypes}`);
  const properties = raw.properties
    ? Object.fromEntries(Object.entries<Json>(raw.properties).map(([name, child]) => [name, fieldSchema(document, child, `${where}.${name}`, depth + 1)]))
    : undefined;
  return {
    kinds,
    nullable: types.includes('null') || (enumValues?.includes(null) ?? false),
    enum: enumValues?.filter((value): value is string | number | boolean => value !== null),
    format: raw.format,
    pattern: raw.pattern,
    minLength: raw.minLength,
    maxLength: raw.maxLength,
    minimum: typeof raw.exclusiveMinimum === 'number' ? raw.exclusiveMinimum + 1 : raw.minimum,
    maximum: typeof raw.exclusiveMaximum === 'number' ? raw.exclusiveMaximum - 1 : raw.maximum,
    properties,
    required: raw.required,
    openObject: raw.additionalProperties === true || (typeof raw.additionalProperties === 'object' && raw.additionalProperties !== null) || (kinds.includes('object') && !properties),
    items: raw.items ? fieldSchema(document, raw.items, `${where}[]`, depth + 1) : undefined,
    minItems: raw.minItems,
    maxItems: raw.maxItems,
  };
}

function kindOf(value: unknown): JsonKind {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonKind;
}

function withoutKeys(raw: Json, keys: string[]): Json {
  return Object.fromEntries(Object.entries(raw).filter(([key]) => !keys.includes(key)));
}
