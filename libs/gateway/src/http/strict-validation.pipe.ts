import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { bodyShapeOf, shapeProblems } from './body-shape';
import { RequestInvalid } from './errors';

/** class-validator's verdict, carried out of ValidationPipe so it can be merged with the shape problems. */
class ValidationFailed extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('validation failed');
  }
}

/**
 * Every body, query and path DTO is checked in two steps, and the message names each failing field
 * once, with the first rule it breaks:
 * 1. a body's shape against its DTO's documentation (body-shape.ts): unknown fields, missing
 *    required fields, null where not documented nullable, and the JSON kind of every value at any depth;
 * 2. class-validator for the value rules (ranges, patterns, enumerations), stopping at a field's
 *    first failure; types are not coerced (a string "100" is not an amount) and query parameters are
 *    parsed by their own strict parsers (libs/contracts query-parameters.ts).
 */
@Injectable()
export class StrictValidationPipe implements PipeTransform {
  private readonly validation = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) => new ValidationFailed(errors),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const problems = new Map<string, string>();
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) throw new RequestInvalid('Request body must be a JSON object');
      shapeProblems(value as Record<string, unknown>, bodyShapeOf(metadata.metatype), '', problems);
    }
    let transformed: unknown;
    try {
      transformed = await this.validation.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof ValidationFailed)) throw error;
      addValidationProblems(error.errors, '', problems);
    }
    if (problems.size > 0) throw new RequestInvalid([...problems.values()].join('; '));
    return transformed;
  }
}

/**
 * One message per field path, skipping fields that already have a problem at, above or inside them:
 * a field of the wrong shape is not also reported for its value, and a list whose item has the wrong
 * shape is not also reported for its items' values.
 */
function addValidationProblems(errors: ValidationError[], parent: string, problems: Map<string, string>): void {
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (hasProblemAround(path, problems)) continue;
    const first = Object.values(error.constraints ?? {})[0];
    if (first !== undefined) problems.set(path, messageFor(first, error.property, path));
    else if (error.children?.length) addValidationProblems(error.children, path, problems);
  }
}

function messageFor(message: string, property: string, path: string): string {
  if (message.startsWith('property ')) return `${path} is not a known field`;
  // class-validator names the property alone; a nested one is named by its whole path.
  return path !== property && message.startsWith(`${property} `) ? `${path}${message.slice(property.length)}` : message;
}

function hasProblemAround(path: string, problems: Map<string, string>): boolean {
  for (const known of problems.keys()) {
    if (path === known || within(path, known) || within(known, path)) return true;
  }
  return false;
}

function within(inner: string, outer: string): boolean {
  return inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
}
