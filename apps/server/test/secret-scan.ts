/**
 * The secrets scan of design invariant 6, shared by every test that looks for card secrets where they
 * must not be (the database, logs, webhook bodies, Kafka: secrets-scan.spec.ts; NATS traffic between
 * processes: distributed.spec.ts).
 */
export interface RunSecrets {
  readonly pans: readonly string[];
  readonly cvvs: readonly string[];
  readonly pins: readonly string[];
  readonly apiKeys: readonly string[];
}

export type SecretPattern = readonly [name: string, pattern: RegExp];

/** Where each secret must not be: clear PAN digits anywhere (spaced or dashed too), the CVV and PIN as JSON or form values, the api-key. */
export function secretPatterns(secrets: RunSecrets): SecretPattern[] {
  return [
    ...secrets.pans.map((pan): SecretPattern => ['PAN', new RegExp(pan.split('').join('[ -]?'))]),
    ...secrets.cvvs.flatMap((cvv): SecretPattern[] => [
      ['CVV as a JSON string value', new RegExp(`(?<![\\w-])"${cvv}"`)],
      ['CVV as a field', new RegExp(`cvv\\W{0,4}${cvv}(?!\\d)`, 'i')],
    ]),
    ...secrets.pins.map((pin): SecretPattern => ['PIN', new RegExp(pin)]),
    ...secrets.apiKeys.map((apiKey): SecretPattern => ['api-key', new RegExp(apiKey)]),
  ];
}

/** Each match, named with where it was found and the text around it. */
export function findSecrets(source: string, texts: readonly string[], patterns: readonly SecretPattern[]): string[] {
  const found: string[] = [];
  for (const text of texts) {
    for (const [name, pattern] of patterns) {
      const match = pattern.exec(text);
      if (match) found.push(`${name} in ${source}: …${text.slice(Math.max(0, match.index - 80), match.index + match[0].length + 40)}…`);
    }
  }
  return found;
}
