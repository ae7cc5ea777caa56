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
});
