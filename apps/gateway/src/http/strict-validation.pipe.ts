import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { RequestInvalid } from './errors';

/**
 * class-validator on every body, query and path DTO: unknown fields are refused, types are not
 * coerced (a string "100" is not an amount), and the message names the field at fault.
 */
@Injectable()
export class StrictValidationPipe implements PipeTransform {
  private readonly validation = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors: ValidationError[]) => new RequestInvalid(describe(errors)),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) throw new RequestInvalid('Request body must be a JSON object');
      rejectNulls(value as Record<string, unknown>, metadata.metatype, '');
    }
    return this.validation.transform(value, metadata);
  }
}

function describe(errors: ValidationError[], parent = ''): string {
  return errors
    .flatMap((error) => {
      const field = parent ? `${parent}.${error.property}` : error.property;
      const own = Object.values(error.constraints ?? {}).map((message) =>
        message.startsWith('property ') ? `${field} is not a known field` : message,
      );
      return [...own, ...(error.children?.length ? [describe(error.children, field)] : [])];
    })
    .join('; ');
}

/** Where @nestjs/swagger keeps a DTO property's documentation (DECORATORS.API_MODEL_PROPERTIES). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

/**
 * class-validator's @IsOptional lets null through as if the field were absent, but the handlers
 * read null as a value (`memo: null` would become a card with no memo the read model cannot hold).
 * null is accepted only where the API documents it (`nullable: true`, e.g. velocity_limit), at any
 * depth of nested DTOs.
 */
function rejectNulls(body: Record<string, unknown>, metatype: Function, parent: string): void {
  for (const [key, value] of Object.entries(body)) {
    const field = parent ? `${parent}.${key}` : key;
    const documented = Reflect.getMetadata(API_MODEL_PROPERTIES, metatype.prototype, key) as { nullable?: boolean } | undefined;
    if (value === null && !documented?.nullable) throw new RequestInvalid(`${field} must not be null`);
    const nested = Reflect.getMetadata('design:type', metatype.prototype, key) as Function | undefined;
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && nested && nested !== Object && nested.prototype) {
      rejectNulls(value as Record<string, unknown>, nested, field);
    }
  }
}
