/**
 * Characters of JSON per statement parameter, at most, for the followers' multi-row writes (the
 * projector's upserts, the events feed's inserts). A catch-up batch's rows as one parameter made
 * strings of hundreds of kilobytes to megabytes, which the drivers copy again (Prisma escapes it into
 * its request, node-postgres flattens it into its buffer). Strings over V8's regular object size
 * (128 KiB) go to the large-object space, which only a full collection frees: they made most of the
 * service's peak memory while catching up (docs/decisions.md, "Memory"). Below that size they die
 * young. A chunk stays under it even when a driver escapes it once more.
 */
export const JSON_PARAMETER_CHARS = 48 * 1024;

/**
 * The items as JSON arrays of at most `maxChars` characters each, in order; an item longer than
 * that alone makes a chunk. Each item is written with `toJson` (JSON.stringify by default).
 */
export function* jsonParameterChunks<T>(items: Iterable<T>, toJson: (item: T) => string = JSON.stringify, maxChars = JSON_PARAMETER_CHARS): Generator<string> {
  let parts: string[] = [];
  let size = 2;
  for (const item of items) {
    const json = toJson(item);
    if (parts.length > 0 && size + json.length > maxChars) {
      yield `[${parts.join(',')}]`;
      parts = [];
      size = 2;
    }
    parts.push(json);
    size += json.length + 1;
  }
  if (parts.length > 0) yield `[${parts.join(',')}]`;
}
