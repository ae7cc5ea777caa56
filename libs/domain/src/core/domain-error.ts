/**
 * Typed domain errors. The edge maps each kind to one HTTP status in one place; the domain never
 * speaks HTTP.
 */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  /** The request field at fault, named as the API names it, when one is. */
  readonly field?: string;

  protected constructor(message: string, field?: string) {
    super(message);
    this.name = new.target.name;
    this.field = field;
  }
}

export class InvalidInput extends DomainError {
  readonly kind = 'invalid';
  constructor(message: string, field?: string) {
    super(message, field);
  }
}

export class NotFound extends DomainError {
  readonly kind = 'not_found';
  constructor(message: string, field?: string) {
    super(message, field);
  }
}

export class Conflict extends DomainError {
  readonly kind = 'conflict';
  constructor(message: string, field?: string) {
    super(message, field);
  }
}
