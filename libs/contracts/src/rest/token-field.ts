import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { UUID_V4, UUID_V4_PATTERN } from './uuid-v4';

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
