import { randomUUID } from 'node:crypto';

/**
 * A number written into the JSON text exactly as given. JSON.stringify cannot write the numbers
 * that hurt: `1e400` (Infinity once parsed), `9007199254740993` (loses precision), `-0` (written `0`).
 */
export class RawNumber {
  constructor(readonly literal: string) {}

  toJSON(): string {
    return this.literal;
  }

  toString(): string {
    return this.literal;
  }
}

/** JSON.stringify, with every {@link RawNumber} written as its literal. */
export function toJsonText(value: unknown): string {
  const literals: string[] = [];
  const marker = randomUUID();
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key: string) {
    const original = this[key];
    if (original instanceof RawNumber) {
      literals.push(original.literal);
      return `${marker}:${literals.length - 1}`;
    }
    return original;
  });
  if (text === undefined) throw new Error('nothing to serialize');
  return text.replace(new RegExp(`"${marker}:(\\d+)"`, 'g'), (_, index: string) => literals[Number(index)]);
}
