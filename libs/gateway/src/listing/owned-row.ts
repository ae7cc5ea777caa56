/**
 * A row looked up within the calling program, or the resource's not-found error: the lookup is
 * scoped to the program, so another program's token answers exactly as a missing one (404, never 403).
 */
export async function ownedRow<Row>(lookup: PromiseLike<Row | null>, notFound: () => Error): Promise<Row> {
  const row = await lookup;
  if (!row) throw notFound();
  return row;
}
