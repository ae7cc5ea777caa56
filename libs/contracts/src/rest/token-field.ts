import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { UUID_V4 } from './validation';

/** UUID_V4 as JSON Schema writes it: no flags there, so both cases are spelled out. */
export const UUID_V4_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$';

/**
 * A token field or parameter (path, query or body): a version 4 UUID, refused otherwise with a
 * message naming the field. The check and its documentation come from one decorator, so the OpenAPI
 * document can never admit a token (another UUID version) that the server refuses.
 */
export function TokenField(options: { optional?: boolean; description?: string } = {}): PropertyDecorator {
  return (target, key) => {
    const documentation = { format: 'uuid', pattern: UUID_V4_PATTERN, ...(options.description ? { description: options.description } : {}) };
    const decorators: PropertyDecorator[] = [
      options.optional ? ApiPropertyOptional(documentation) : ApiProperty(documentation),
      ...(options.optional ? [IsOptional()] : []),
      Matches(UUID_V4, { message: `${String(key)} must be a 36-character version 4 UUID` }),
    ];
    for (const decorate of decorators) decorate(target, key);
  };
}
