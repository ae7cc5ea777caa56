import type { ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';

/**
 * The JSON kind a request field takes, from the very options that document it, checked before the
 * field's value rules: class-validator's own checks accept some values of the wrong kind
 * (@ValidateNested takes a list where an object belongs, which let `{"velocity_limit": []}` switch
 * the velocity rule off), and a kind named in words ("amount must be an integer of 0 or more, not a
 * string") is one message where the value rules would give several.
 */
type Kind = 'string' | 'number' | 'boolean' | 'object' | 'array';

interface KindOf {
  readonly kind: Kind;
  readonly integer?: boolean;
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: string;
  readonly pattern?: string;
  readonly items?: KindOf;
}

const SCALARS = new Map<unknown, KindOf>([
  [String, { kind: 'string' }],
  ['string', { kind: 'string' }],
  [Number, { kind: 'number' }],
  ['number', { kind: 'number' }],
  ['integer', { kind: 'number', integer: true }],
  [Boolean, { kind: 'boolean' }],
  ['boolean', { kind: 'boolean' }],
  // An object whose keys the field's own check reads (an auth rule's parameters), not a DTO's.
  ['object', { kind: 'object' }],
]);

/** What the documentation says a value is; a field documented with no kind is a fault of ours, found when its class loads. */
function kindOf(documentation: ApiPropertyOptions, field: string): KindOf {
  const { type, enum: values, items, minimum, maximum, format, pattern } = documentation as ApiPropertyOptions & Record<string, unknown> & { items?: ApiPropertyOptions };
  if (Array.isArray(type)) return { kind: 'array', items: kindOf({ type: type[0], enum: values } as ApiPropertyOptions, field) };
  if (type === 'array') return { kind: 'array', items: kindOf(items ?? {}, field) };
  const scalar = SCALARS.get(type) ?? (type === undefined && values ? { kind: 'string' as const } : undefined);
  const bounds = Object.fromEntries(Object.entries({ enum: values, minimum, maximum, format, pattern }).filter(([, value]) => value !== undefined));
  if (scalar) return { ...scalar, ...bounds } as KindOf;
  if (typeof type === 'function' && type !== Object && type !== Array && type !== Date) return { kind: 'object' };
  throw new Error(`${field}: its documentation names no JSON kind; say it with { type }`);
}

const FORMAT_NAMES: Record<string, string> = { uuid: 'a UUID', uri: 'an http or https URL', date: 'a date written YYYY-MM-DD', 'date-time': 'an RFC 3339 date-time' };
const KIND_NAMES: Record<Kind, string> = { string: 'a string', number: 'a number', boolean: 'true or false', object: 'an object', array: 'a list' };
const ACTUAL_NAMES: Record<Kind | 'null', string> = { string: 'a string', number: 'a number', boolean: 'a boolean', object: 'an object', array: 'a list', null: 'null' };

/** What a value of this kind must be, in words: `an integer of 0 or more`, `one of OPEN, PAUSED`. */
function describe(shape: KindOf): string {
  if (shape.enum) return `one of ${shape.enum.join(', ')}`;
  if (shape.kind === 'number') {
    const name = shape.integer ? 'an integer' : 'a number';
    if (shape.minimum !== undefined && shape.maximum !== undefined) return `${name} from ${shape.minimum} to ${shape.maximum}`;
    if (shape.minimum !== undefined) return `${name} of ${shape.minimum} or more`;
    return shape.maximum !== undefined ? `${name} of ${shape.maximum} or less` : name;
  }
  if (shape.kind === 'string') return (shape.format && FORMAT_NAMES[shape.format]) ?? (shape.pattern ? `a string matching ${shape.pattern}` : 'a string');
  if (shape.kind === 'array' && shape.items?.enum) return `a list of values among ${shape.items.enum.join(', ')}`;
  if (shape.kind === 'array') return shape.items?.kind === 'string' ? 'a list of strings' : 'a list';
  return KIND_NAMES[shape.kind];
}

function kindProblem(value: unknown, shape: KindOf, name: string): string | null {
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as Kind);
  if (actual !== shape.kind) return `${name} must be ${describe(shape)}, not ${ACTUAL_NAMES[actual]}`;
  // The first item of the wrong kind speaks for the list: a thousand wrong items are one mistake.
  for (const [index, item] of (shape.items ? (value as unknown[]) : []).entries()) {
    const problem = kindProblem(item, shape.items!, `${name}[${index}]`);
    if (problem) return problem;
  }
  return null;
}

/**
 * The first check of a field: present if required, not null unless documented nullable, and of the
 * documented JSON kind at any depth (a list by its first wrong item, `blocked_merchants[3]`).
 */
export function JsonKind(documentation: ApiPropertyOptions, presence: { required: boolean }, field: string): PropertyDecorator {
  const shape = kindOf(documentation, field);
  const nullable = documentation.nullable === true;
  const problem = (value: unknown, name: string): string | null => {
    if (value === undefined) return presence.required ? `${name} is required and must be ${describe(shape)}` : null;
    if (value === null) return nullable ? null : `${name} must not be null`;
    return kindProblem(value, shape, name);
  };
  return ValidateBy({ name: 'jsonKind', validator: { validate: (value, args) => problem(value, args!.property) === null, defaultMessage: (args) => problem(args!.value, args!.property) ?? '' } });
}
