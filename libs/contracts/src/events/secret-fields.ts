import type { LedgerEvent } from './event-catalog';

/** Every field name of some event's data. */
type EventDataField = LedgerEvent extends infer Event ? (Event extends { readonly data: infer Data } ? keyof Data & string : never) : never;

/**
 * The event data fields that hold a secret as the store keeps it: the PAN's ciphertext and keyed
 * lookup hash, the PIN's keyed hash, an api-key's hash and a sealed signing secret. Each must be a
 * field of some event (the type check fails on a renamed or misspelt one).
 */
const STORED_SECRET_FIELDS = ['panEncrypted', 'panHash', 'pinHash', 'keyHash', 'secretSealed'] as const satisfies readonly EventDataField[];

/**
 * Which event data fields are secret: the ONE definition for every edge that shows events. Kafka
 * integration messages and webhooks leave them out (toIntegrationMessage), the audit API replaces
 * them with a marker (libs/gateway/src/audit/stream-events.ts). Besides the stored secrets, the
 * clear names (`pan`, `cvv`, `pin`, `newSecretSealed`) are listed so that a future event carrying one
 * by mistake still never shows it. Removed at any depth.
 */
export const SECRET_EVENT_FIELDS: ReadonlySet<string> = new Set<string>([...STORED_SECRET_FIELDS, 'pan', 'cvv', 'pin', 'newSecretSealed']);

/** What to put instead of a secret field's value; `undefined` leaves the field out. */
export type SecretReplacement = (value: unknown, field: string) => unknown;

/** A copy of `value` with every secret field, at any depth, replaced by `replace` (or left out). */
export function replaceSecretFields(value: unknown, replace: SecretReplacement): unknown {
  if (Array.isArray(value)) return value.map((item) => replaceSecretFields(item, replace));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!SECRET_EVENT_FIELDS.has(key)) out[key] = replaceSecretFields(inner, replace);
    else {
      const replacement = replace(inner, key);
      if (replacement !== undefined) out[key] = replacement;
    }
  }
  return out;
}

/** A copy of `value` without any secret field: what leaves the service on Kafka and in webhooks. */
export function withoutSecretFields(value: unknown): unknown {
  return replaceSecretFields(value, () => undefined);
}
