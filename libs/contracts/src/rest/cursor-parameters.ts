import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { IsOptional, Matches, ValidateBy, type ValidationArguments } from 'class-validator';
import { UUID_V4_PATTERN } from './uuid-v4';

/** Webhook message tokens are name-based (version 5) UUIDs: their lists take a UUID of any version. */
const ANY_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type CursorName = 'starting_after' | 'ending_before';

/**
 * What each cursor parameter may not come with. A request pages one way: by `page` (the spec's
 * envelope) or by cursor (Lithic's); and a cursor page runs one way from one item. Each conflict is
 * reported once, on one parameter, naming both.
 */
const EXCLUDES: Record<CursorName, readonly string[]> = { starting_after: ['page'], ending_before: ['page', 'starting_after'] };

/**
 * Lithic's cursor parameters (`starting_after`, `ending_before`): the token of an item of the same
 * list; the page holds the items after (before) it in the list's own order. The token's form is
 * checked here, whether it names an item of the list when the list is read.
 */
export function CursorParameter(options: { anyUuid?: boolean } = {}): PropertyDecorator {
  return (target, key) => {
    const name = String(key) as CursorName;
    const excluded = EXCLUDES[name];
    const uuid = options.anyUuid ? ANY_UUID : new RegExp(UUID_V4_PATTERN);
    // Only a well-formed other parameter conflicts: a malformed one is reported on its own, once.
    const wellFormed = (other: string, value: unknown) => (other === 'page' ? typeof value === 'number' : typeof value === 'string' && uuid.test(value));
    const conflict = (args: ValidationArguments) => excluded.find((other) => wellFormed(other, (args.object as Record<string, unknown>)[other]));
    const decorators: PropertyDecorator[] = [
      ApiPropertyOptional({
        type: 'string',
        format: 'uuid',
        ...(options.anyUuid ? {} : { pattern: UUID_V4_PATTERN }),
        description: `Cursor: the token of an item of this list; the page holds the items ${name === 'starting_after' ? 'after' : 'before'} it, in the list's order. Not with ${excluded.join(' or ')}.`,
        // The exclusion, machine-readable: clients and the fuzz suite read which parameters never go together.
        'x-not-with': excluded,
      } as ApiPropertyOptions),
      IsOptional(),
      Matches(uuid, { message: `${name} must be a 36-character ${options.anyUuid ? '' : 'version 4 '}UUID` }),
      ValidateBy({
        name: 'cursorAlone',
        validator: {
          validate: (value, args) => !uuid.test(String(value)) || conflict(args!) === undefined,
          // The reason names no further parameter: a message speaks of each parameter once.
          defaultMessage: (args) => `${name} and ${conflict(args!)} cannot be combined: ${conflict(args!) === 'page' ? 'a list is paged by page number or by cursor' : 'a cursor page runs one way from one item'}`,
        },
      }),
    ];
    for (const decorate of decorators) decorate(target, key);
  };
}
