import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';

/** Where class-transformer keeps @Type() (published as JavaScript only under this path). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/**
 * The JSON shape of a request body, read from its DTO's OpenAPI documentation (@ApiProperty): which
 * fields exist, which are required, which may be null, and the JSON kind of each value, nested DTOs
 * and list items included. A body is checked against it before class-validator runs, so a value of
 * the wrong kind (a list where an object belongs, an object where a number belongs, ...) is refused
 * at any depth with one message, whatever validation decorators the field has: class-validator's
 * @ValidateNested, for one, accepts a list where an object belongs. The documentation is what the
 * shape comes from because it is what clients read; a DTO whose documentation and validation disagree
 * is refused when its shape is first built (docs/decisions.md, Hostile input).
 */
export type JsonKind = 'string' | 'number' | 'boolean' | 'object' | 'array';

export interface ValueShape {
  readonly kind: JsonKind;
  readonly integer?: boolean;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: string;
  readonly pattern?: string;
  /** The shape of each item of a list. */
  readonly items?: ValueShape;
  /** The fields of a nested object. */
  readonly fields?: ReadonlyMap<string, FieldShape>;
}

export interface FieldShape extends ValueShape {
  readonly required: boolean;
  readonly nullable: boolean;
}

/** Where @nestjs/swagger keeps a DTO's documented properties (DECORATORS.API_MODEL_PROPERTIES{,_ARRAY}). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';
const API_MODEL_PROPERTIES_ARRAY = 'swagger/apiModelPropertiesArray';

interface DocumentedProperty {
  type?: unknown;
  isArray?: boolean;
  items?: { type?: unknown; enum?: unknown[] } & Record<string, unknown>;
  enum?: unknown[];
  required?: boolean;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  format?: string;
  pattern?: string;
}

const SCALARS = new Map<unknown, { kind: JsonKind; integer?: boolean }>([
  [String, { kind: 'string' }],
  ['string', { kind: 'string' }],
  [Number, { kind: 'number' }],
  ['number', { kind: 'number' }],
  ['integer', { kind: 'number', integer: true }],
  [Boolean, { kind: 'boolean' }],
  ['boolean', { kind: 'boolean' }],
]);

/** A DTO whose documentation cannot give a shape, or disagrees with its validation: a fault of ours. */
export class BodyContractError extends Error {
  constructor(dto: Function, property: string, problem: string) {
    super(`${dto.name}.${property}: ${problem}`);
    this.name = 'BodyContractError';
  }
}

const shapes = new WeakMap<Function, ReadonlyMap<string, FieldShape>>();

/** The fields of a body DTO, built once per class. Throws {@link BodyContractError} for a DTO it cannot describe. */
export function bodyShapeOf(dto: Function): ReadonlyMap<string, FieldShape> {
  let fields = shapes.get(dto);
  if (!fields) {
    fields = buildFields(dto, new Set());
    shapes.set(dto, fields);
  }
  return fields;
}

function buildFields(dto: Function, building: Set<Function>): ReadonlyMap<string, FieldShape> {
  if (building.has(dto)) throw new BodyContractError(dto, '*', 'a body DTO must not contain itself');
  building.add(dto);
  const documented = ((Reflect.getMetadata(API_MODEL_PROPERTIES_ARRAY, dto.prototype) ?? []) as string[]).map((key) => key.replace(/^:/, ''));
  const validations = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const fields = new Map<string, FieldShape>();
  for (const property of documented) {
    const documentation = Reflect.getMetadata(API_MODEL_PROPERTIES, dto.prototype, property) as DocumentedProperty;
    const own = validations.filter((validation) => validation.propertyName === property);
    const required = documentation.required !== false;
    const optional = own.some((validation) => validation.type === ValidationTypes.CONDITIONAL_VALIDATION);
    if (own.length === 0) throw new BodyContractError(dto, property, 'documented but never validated');
    if (required === optional) throw new BodyContractError(dto, property, required ? 'documented as required but @IsOptional' : 'documented as optional but not @IsOptional');
    const value = valueShape(dto, property, documentation, building);
    if (value.fields && !own.some((validation) => validation.type === ValidationTypes.NESTED_VALIDATION)) {
      throw new BodyContractError(dto, property, 'a nested DTO needs @ValidateNested()');
    }
    if (value.fields && !defaultMetadataStorage.findTypeMetadata(dto, property)) throw new BodyContractError(dto, property, 'a nested DTO needs @Type(() => Dto)');
    fields.set(property, { ...value, required, nullable: documentation.nullable === true });
  }
  for (const validation of validations) {
    if (!fields.has(validation.propertyName)) throw new BodyContractError(dto, validation.propertyName, 'validated but not documented (@ApiProperty)');
  }
  building.delete(dto);
  return fields;
}

function valueShape(dto: Function, property: string, documentation: DocumentedProperty, building: Set<Function>): ValueShape {
  const { type, isArray, items } = documentation;
  // `type: [String]` is kept as `isArray` with the item type, `type: [String], enum` as `type: 'array'` with `items`.
  if (type === 'array') return { kind: 'array', items: typeShape(dto, property, items?.type, items?.enum, building) };
  if (isArray) return { kind: 'array', items: typeShape(dto, property, type, documentation.enum, building) };
  const { minimum, maximum, format, pattern } = documentation;
  const bounds = Object.fromEntries(Object.entries({ minimum, maximum, format, pattern }).filter(([, value]) => value !== undefined));
  return { ...typeShape(dto, property, type, documentation.enum, building), ...bounds };
}

function typeShape(dto: Function, property: string, type: unknown, values: unknown[] | undefined, building: Set<Function>): ValueShape {
  // `type: () => Dto` names a class lazily (a class has a prototype, an arrow function has none).
  const resolved = typeof type === 'function' && !type.prototype ? (type as () => unknown)() : type;
  const scalar = SCALARS.get(resolved);
  if (scalar) return values ? { ...scalar, enum: values } : scalar;
  if (values && (resolved === undefined || resolved === Object)) return { kind: 'string', enum: values };
  if (typeof resolved === 'function' && resolved !== Object && resolved !== Array && resolved !== Date) {
    return { kind: 'object', fields: buildFields(resolved, building) };
  }
  throw new BodyContractError(dto, property, `its documented type ${String((resolved as Function)?.name ?? resolved)} gives no JSON kind: say it in @ApiProperty({ type })`);
}

/** The JSON kind of a parsed value (null excluded). */
export function jsonKindOf(value: unknown): JsonKind {
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonKind;
}

const KIND_NAMES: Record<JsonKind, string> = { string: 'a string', number: 'a number', boolean: 'true or false', object: 'an object', array: 'a list' };

const FORMAT_NAMES: Record<string, string> = { uuid: 'a UUID', uri: 'an http or https URL', date: 'a date written YYYY-MM-DD', 'date-time': 'an RFC 3339 date-time' };

/** What a value of this shape must be, in words, from its documentation: `an integer of 0 or more`, `one of OPEN, PAUSED`. */
export function describeShape(shape: ValueShape): string {
  if (shape.enum) return `one of ${shape.enum.join(', ')}`;
  switch (shape.kind) {
    case 'number': {
      const name = shape.integer ? 'an integer' : 'a number';
      if (shape.minimum !== undefined && shape.maximum !== undefined) return `${name} from ${shape.minimum} to ${shape.maximum}`;
      if (shape.minimum !== undefined) return `${name} of ${shape.minimum} or more`;
      return shape.maximum !== undefined ? `${name} of ${shape.maximum} or less` : name;
    }
    case 'string':
      if (shape.format && FORMAT_NAMES[shape.format]) return FORMAT_NAMES[shape.format];
      return shape.pattern ? `a string matching ${shape.pattern}` : 'a string';
    case 'array':
      if (shape.items?.enum) return `a list of values among ${shape.items.enum.join(', ')}`;
      return shape.items?.kind === 'string' ? 'a list of strings' : 'a list';
    default:
      return KIND_NAMES[shape.kind];
  }
}

const ACTUAL_NAMES: Record<JsonKind, string> = { string: 'a string', number: 'a number', boolean: 'a boolean', object: 'an object', array: 'a list' };

/**
 * The shape problems of a body, one per field (the first it has: unknown, missing, null, wrong
 * kind; for a list, its first wrong item), keyed by the field's path (`velocity_limit.window_seconds`,
 * `blocked_merchants[2]`).
 */
export function shapeProblems(body: Record<string, unknown>, fields: ReadonlyMap<string, FieldShape>, parent = '', problems = new Map<string, string>()): Map<string, string> {
  for (const key of Object.keys(body)) {
    if (!fields.has(key)) problems.set(join(parent, key), `${join(parent, key)} is not a known field`);
  }
  for (const [key, field] of fields) {
    const path = join(parent, key);
    const value = body[key];
    if (value === undefined) {
      if (field.required) problems.set(path, `${path} is required and must be ${describeShape(field)}`);
    } else if (value === null) {
      if (!field.nullable) problems.set(path, `${path} must not be null`);
    } else {
      valueProblems(value, field, path, problems);
    }
  }
  return problems;
}

function valueProblems(value: unknown, shape: ValueShape, path: string, problems: Map<string, string>): void {
  const kind = value === null ? null : jsonKindOf(value);
  if (kind !== shape.kind) {
    problems.set(path, `${path} must be ${describeShape(shape)}, not ${kind === null ? 'null' : ACTUAL_NAMES[kind]}`);
    return;
  }
  if (shape.items) {
    // The first item of the wrong shape speaks for the list: a thousand wrong items are one mistake.
    for (const [index, item] of (value as unknown[]).entries()) {
      const known = problems.size;
      valueProblems(item, shape.items, `${path}[${index}]`, problems);
      if (problems.size > known) break;
    }
  }
  if (shape.fields) shapeProblems(value as Record<string, unknown>, shape.fields, path, problems);
}

function join(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}
