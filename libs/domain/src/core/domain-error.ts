/**
 * Typed domain errors. The edge maps each kind to one HTTP status in one place; the domain never
 * speaks HTTP.
 *
 * Every error class names itself with a stable `code` (`static readonly code = 'card_not_found'`):
 * what another process knows it by, where the class name would change with a rename or a minifier.
 * A subclass without a code of its own shares its parent's and is taken for the parent elsewhere.
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
  static readonly code: string = 'invalid_input';
  readonly kind = 'invalid';
  constructor(message: string, field?: string) {
    super(message, field);
  }
}

export class NotFound extends DomainError {
  static readonly code: string = 'not_found';
  readonly kind = 'not_found';
  constructor(message: string, field?: string) {
    super(message, field);
  }
}

export class Conflict extends DomainError {
  static readonly code: string = 'conflict';
  readonly kind = 'conflict';
  constructor(message: string, field?: string) {
    super(message, field);
  }
}
