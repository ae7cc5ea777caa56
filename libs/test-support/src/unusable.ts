/**
 * A stand-in for a dependency the scenario must not reach: reading any member throws, naming it and
 * why, so a scenario that did reach it fails there instead of passing on made-up answers.
 *
 *     unusable<ReadModelClient>('ProgramSpend used the read model', 'these programs have no weekly limit')
 */
export function unusable<T>(what: string, why: string): T {
  return new Proxy(
    {},
    {
      get: (_target, member) => {
        throw new Error(`${what}.${String(member)}: ${why}`);
      },
    },
  ) as T;
}
