/**
 * Text for Prisma's `contains`, which becomes a LIKE pattern with the text inside unescaped: `%` and
 * `_` would match anything. Escaped with PostgreSQL's default escape character, the text matches itself.
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
