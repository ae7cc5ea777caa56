import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { RequestInvalid } from './errors';
import { cacheValidationMetadata } from './validation-metadata-cache';

/**
 * The names of Object.prototype's members (toString, valueOf, hasOwnProperty, ...). class-transformer
 * drops a body key of one of these names without a word, as it will not overwrite an inherited
 * method, so the whitelist never sees it; no field of ours has such a name.
 */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

interface Problem {
  readonly path: string;
  readonly message: string;
}

/**
 * class-validator on every body, query and path DTO, through Nest's ValidationPipe: unknown fields
 * refused at any depth, no type coercion (a string "100" is not an amount; query parameters are
 * parsed by their own strict parsers, libs/contracts query-parameters.ts), and each field's first
 * broken rule only. The DTO's field decorators (libs/contracts value-fields.ts) make the JSON kind
 * the first rule, so the message names each failing field once, by its path
 * (`velocity_limit.window_seconds`), joined with `; `.
 */
@Injectable()
export class StrictValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      // class-validator's verdict as it is, thrown out of ValidationPipe to be merged with the keys it never saw.
      exceptionFactory: (errors: ValidationError[]) => errors,
    });
    cacheValidationMetadata();
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dropped: Problem[] = [];
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      // No body at all is an empty object: its required fields are then named as missing.
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) throw new RequestInvalid('Request body must be a JSON object');
      inheritedNameKeys(value, '', dropped);
    }
    let refused: Problem[] = [];
    let transformed: unknown;
    try {
      transformed = await super.transform(value, metadata);
    } catch (error) {
      if (!Array.isArray(error)) throw error;
      refused = problemsOf(error as ValidationError[], '');
    }
    // A field refused for its kind is not also reported for keys inside it.
    const problems = [...dropped.filter(({ path }) => !refused.some((problem) => within(path, problem.path))), ...refused];
    if (problems.length > 0) throw new RequestInvalid(problems.map((problem) => problem.message).join('; '));
    return transformed;
  }
}

function inheritedNameKeys(value: unknown, parent: string, problems: Problem[]): void {
  if (value === null || typeof value !== 'object') return;
  for (const [key, child] of Object.entries(value)) {
    const path = Array.isArray(value) ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;
    if (!Array.isArray(value) && INHERITED_NAMES.has(key)) problems.push({ path, message: `${path} is not a known field` });
    else inheritedNameKeys(child, path, problems);
  }
}

/** One problem per field: its first broken rule, or those of its fields when only they break one. */
function problemsOf(errors: ValidationError[], parent: string): Problem[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const first = Object.values(error.constraints ?? {})[0];
    if (first === undefined) return problemsOf(error.children ?? [], path);
    // forbidNonWhitelisted says "property x should not exist".
    if (first.startsWith('property ')) return [{ path, message: `${path} is not a known field` }];
    // class-validator names the property alone (`count must ...`, `names[1] must ...`); a nested one is named by its whole path.
    const namesItself = first.startsWith(`${error.property} `) || first.startsWith(`${error.property}[`);
    return [{ path, message: path !== error.property && namesItself ? `${path}${first.slice(error.property.length)}` : first }];
  });
}

function within(inner: string, outer: string): boolean {
  return inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
}
