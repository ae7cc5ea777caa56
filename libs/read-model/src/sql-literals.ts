/**
 * A fixed list of SQL string literals, `'A', 'B'`, for constants the domain names (statuses): the
 * query text stays what it would be written by hand, so its plan does not change. Only plain
 * upper-case words are accepted; anything else is a value and must be a bound parameter.
 */
export function sqlStringList(values: readonly string[]): string {
  if (values.length === 0) throw new Error('An SQL list needs at least one value');
  for (const value of values) if (!/^[A-Z_]+$/.test(value)) throw new Error(`Not a constant for an SQL literal: ${value}`);
  return values.map((value) => `'${value}'`).join(', ');
}
