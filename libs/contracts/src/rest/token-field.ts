import { Transform } from 'class-transformer';
import { Matches } from 'class-validator';
import { UUID_V4, UUID_V4_PATTERN } from './uuid-v4';
import { valueField } from './value-fields';

/**
 * A token field or parameter (path, query or body): a version 4 UUID, refused otherwise with a
 * message naming the field. The check and its documentation come from one decorator, so the OpenAPI
 * document can never admit a token (another UUID version) that the server refuses.
 *
 * A UUID's hex digits are case-insensitive (RFC 9562) and tokens are issued in lower case, so every
 * token is read in lower case: the stream ids that name them (`card-<token>`) are case-sensitive
 * text, and the uuid columns of the read models are not, which made an upper-case token found on
 * some routes and not on others.
 */
export function TokenField(options: { optional?: boolean; description?: string } = {}): PropertyDecorator {
  return (target, key) => {
    Transform(({ value }) => (typeof value === 'string' ? value.toLowerCase() : value))(target, key);
    valueField({ type: 'string', format: 'uuid', pattern: UUID_V4_PATTERN }, options, [Matches(UUID_V4, { message: `${String(key)} must be a 36-character version 4 UUID` })])(target, key);
  };
}
