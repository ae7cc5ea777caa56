import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { JsonKind } from './json-kind';
import { MAX_MONEY } from './validation';

/**
 * The field decorators of request DTOs (bodies, query strings and paths): each documents a field and
 * checks it from one declaration, so the OpenAPI document and the checks cannot drift apart.
 */
export interface FieldOptions {
  /** The field may be absent (and is documented as optional). */
  readonly optional?: boolean;
  readonly description?: string;
  /** What an absent field means, as documented. */
  readonly default?: unknown;
}

/**
 * The documentation and the checks of a field. The first check is the JSON kind the documentation
 * names (json-kind.ts), so presence, null and kind come from the options clients read; an optional
 * field may be absent, not null, unless documented `nullable`. The field's own checks follow,
 * registered from the last to the first as the same decorators stacked above the property would be
 * (class-validator runs them in that order and the validation pipe stops at the first broken one).
 * The fields below are made of it; a DTO's own kind of field may be too.
 */
export function valueField(documentation: ApiPropertyOptions, options: FieldOptions, checks: readonly PropertyDecorator[]): PropertyDecorator {
  const documented = {
    ...documentation,
    ...(options.default !== undefined ? { default: options.default } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
  } as ApiPropertyOptions;
  const presence = !options.optional ? [] : documentation.nullable ? [IsOptional()] : [ValidateIf((_object, value) => value !== undefined)];
  return (target, key) => {
    const kind = JsonKind(documented, { required: !options.optional }, `${target.constructor.name}.${String(key)}`);
    const decorators = [options.optional ? ApiPropertyOptional(documented) : ApiProperty(documented), ...presence, kind, ...[...checks].reverse()];
    for (const decorate of decorators) decorate(target, key);
  };
}

/** A nested object of its own DTO, checked field by field (`velocity_limit.window_seconds`). */
export function NestedField(dto: () => Function, options: FieldOptions & { nullable?: boolean } = {}): PropertyDecorator {
  return (target, key) => valueField({ type: dto(), ...(options.nullable ? { nullable: true } : {}) }, options, [ValidateNested(), Type(dto)])(target, key);
}

/**
 * Money in whole cents, from `minimum` (0 unless said) to MAX_MONEY. `message` replaces
 * class-validator's for a value that is not an integer; `belowMinimum` for one under the minimum.
 */
export function CentsField(options: FieldOptions & { minimum?: number; message?: string; belowMinimum?: string } = {}): PropertyDecorator {
  const minimum = options.minimum ?? 0;
  const message = (text: string | undefined) => (text === undefined ? undefined : { message: text });
  return valueField({ type: 'integer', minimum }, options, [IsInt(message(options.message)), Min(minimum, message(options.belowMinimum)), Max(MAX_MONEY)]);
}

/** Text that matches `pattern` (documented as its source), refused with `message` otherwise. */
export function PatternField(pattern: RegExp, message: string, options: FieldOptions = {}): PropertyDecorator {
  return valueField({ type: 'string', pattern: pattern.source }, options, [Matches(pattern, { message })]);
}

/** Text of at most `maxLength` characters; with `notEmpty`, at least one, refused with that message. */
export function TextField(maxLength: number, options: FieldOptions & { notEmpty?: string } = {}): PropertyDecorator {
  const { notEmpty } = options;
  const documentation: ApiPropertyOptions = notEmpty === undefined ? { type: 'string', maxLength } : { type: 'string', minLength: 1, maxLength };
  return valueField(documentation, options, [IsString(), ...(notEmpty === undefined ? [] : [MinLength(1, { message: notEmpty })]), MaxLength(maxLength)]);
}

/** One of `values`; refused as "<field> must be one of …" unless `message` says otherwise. */
export function OneOfField(values: readonly string[], options: FieldOptions & { message?: string } = {}): PropertyDecorator {
  return (target, key) => {
    const message = options.message ?? `${String(key)} must be one of ${values.join(', ')}`;
    valueField({ enum: values as string[] }, options, [IsIn(values, { message })])(target, key);
  };
}

/** A receiver's URL (webhooks, the authorization stream): http or https, host names without a TLD allowed. */
export function UrlField(options: FieldOptions = {}): PropertyDecorator {
  const url = IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true }, { message: 'url must be an http or https URL' });
  return valueField({ type: 'string', format: 'uri', maxLength: 2048 }, options, [url, MaxLength(2048)]);
}

/** true or false; `message` replaces class-validator's for anything else. */
export function FlagField(options: FieldOptions & { message?: string } = {}): PropertyDecorator {
  return valueField({ type: 'boolean' }, options, [IsBoolean(options.message === undefined ? undefined : { message: options.message })]);
}

/** A card's expiry month as its card shows it: two digits, 01 to 12. */
export function ExpiryMonthField(options: FieldOptions = {}): PropertyDecorator {
  return PatternField(/^(0[1-9]|1[0-2])$/, 'exp_month must be two digits, 01 to 12', options);
}

export function ExpiryYearField(options: FieldOptions = {}): PropertyDecorator {
  return PatternField(/^\d{4}$/, 'exp_year must be a four-digit year', options);
}

/** A PIN as set on a card and as presented in a simulated authorization. */
export function PinField(options: FieldOptions = {}): PropertyDecorator {
  return PatternField(/^\d{4,12}$/, 'pin must be 4 to 12 digits', options);
}
