import type { RecordedEvent } from '@ledger/event-store';
import { toIntegrationMessage } from '../messages/integration-message';
import { replaceSecretFields, SECRET_EVENT_FIELDS, withoutSecretFields } from './secret-fields';

/** Data with every secret field at the top, nested in an object and inside an array. */
function dataWithEverySecret(): Record<string, unknown> {
  const secrets = Object.fromEntries([...SECRET_EVENT_FIELDS].map((field) => [field, `secret-${field}`]));
  return { cardToken: 'c-1', memo: 'kept', ...secrets, nested: { lastFour: '4242', ...secrets }, list: [{ ...secrets, amount: 5 }, 'plain'] };
}

describe('the secret event fields', () => {
  it('name the stored card and key secrets and the clear ones', () => {
    for (const field of ['panEncrypted', 'panHash', 'pinHash', 'keyHash', 'secretSealed', 'pan', 'cvv', 'pin']) expect(SECRET_EVENT_FIELDS.has(field)).toBe(true);
  });

  it('are left out at any depth, everything else kept', () => {
    expect(withoutSecretFields(dataWithEverySecret())).toEqual({ cardToken: 'c-1', memo: 'kept', nested: { lastFour: '4242' }, list: [{ amount: 5 }, 'plain'] });
  });

  it('are replaced at any depth by what the caller puts instead', () => {
    const marked = replaceSecretFields(dataWithEverySecret(), (value, field) => `<${field}:${String(value).length}>`);
    const text = JSON.stringify(marked);
    for (const field of SECRET_EVENT_FIELDS) expect(text).not.toContain(`secret-${field}`);
    expect(marked).toMatchObject({ memo: 'kept', panHash: '<panHash:14>', nested: { lastFour: '4242', pin: '<pin:10>' }, list: [{ amount: 5, cvv: '<cvv:10>' }, 'plain'] });
  });

  it('never reach an integration message (Kafka and webhooks)', () => {
    const recorded = {
      streamId: 'card-c-1',
      streamVersion: 0,
      position: { commit: 1n, prepare: 1n },
      type: 'CardCreated',
      schemaVersion: 1,
      data: dataWithEverySecret(),
      metadata: { eventId: 'e-1', occurredAt: '2026-01-01T00:00:00.000Z', programToken: 'p-1' },
      recordedAt: '2026-01-01T00:00:00.000Z',
    } as unknown as RecordedEvent;
    const text = JSON.stringify(toIntegrationMessage(recorded, 'c-1'));
    for (const field of SECRET_EVENT_FIELDS) expect({ field, leaked: text.includes(`secret-${field}`) || text.includes(`"${field}"`) }).toEqual({ field, leaked: false });
  });
});
