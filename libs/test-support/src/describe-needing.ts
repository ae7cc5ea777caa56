/**
 * A suite that needs a real component (Kafka, NATS, Chromium) which may be missing on a developer's
 * machine. With the component there it is an ordinary `describe`. Without it, a developer sees the
 * suite skipped with the reason in its name; under `CI=true` the suite instead fails with that reason,
 * so CI can never go green with the component untested.
 *
 * @param missing why the component cannot be used here, or null when it can
 */
export function describeNeeding(missing: string | null | undefined): (name: string, body: () => void) => void {
  if (!missing) return describe;
  if (process.env.CI === 'true') {
    return (name, _body) =>
      describe(name, () => {
        it('has the real component it needs (CI=true refuses to skip)', () => {
          throw new Error(`required under CI=true: ${missing}`);
        });
      });
  }
  console.warn(`[tests] SKIPPED: ${missing}`);
  return (name, body) => describe.skip(`${name} (skipped: ${missing})`, body);
}
