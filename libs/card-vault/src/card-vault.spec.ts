import { isValidCardNumber } from '@ledger/domain';
import { CardVault, parseCardDataKey } from './card-vault';
import { MessageSeal, MessageUnsealable } from './message-seal';

const key = Buffer.alloc(32, 7);
const vault = new CardVault(key);

describe('CardVault', () => {
  it('issues 16-digit Luhn-valid numbers with the BIN prefix', () => {
    for (let i = 0; i < 200; i++) {
      const pan = vault.newCardNumber();
      expect(pan).toMatch(/^424242\d{10}$/);
      expect(isValidCardNumber(pan)).toBe(true);
    }
  });

  it('encrypts so that the ciphertext hides the PAN and decrypts back', () => {
    const pan = '4242421234567890';
    const sealed = vault.encrypt(pan);
    expect(sealed).not.toContain(pan);
    expect(sealed).not.toContain('1234567890');
    expect(vault.encrypt(pan)).not.toBe(sealed); // fresh IV each time
    expect(vault.decrypt(sealed)).toBe(pan);
  });

  it('detects a tampered ciphertext', () => {
    const sealed = vault.encrypt('4242421234567890').split('.');
    sealed[4] = Buffer.from('4242429999999999').toString('base64url');
    expect(() => vault.decrypt(sealed.join('.'))).toThrow();
  });

  it('refuses a ciphertext sealed under another key', () => {
    const other = new CardVault(Buffer.alloc(32, 9));
    expect(() => vault.decrypt(other.encrypt('4242421234567890'))).toThrow('unknown key');
  });

  it('rotates the encryption key: new PANs sealed with the new key, old ones still open, lookup and CVV unchanged', () => {
    const before = vault.encrypt('4242421234567890');
    const rotated = new CardVault(key, '424242', [Buffer.alloc(32, 3), Buffer.alloc(32, 2)]);
    const after = rotated.encrypt('4242421234567890');
    expect(after.split('.')[1]).not.toBe(before.split('.')[1]);
    expect(rotated.decrypt(before)).toBe('4242421234567890');
    expect(rotated.decrypt(after)).toBe('4242421234567890');
    expect(() => vault.decrypt(after)).toThrow('unknown key');
    expect(rotated.lookupHash('4242421234567890')).toBe(vault.lookupHash('4242421234567890'));
    expect(rotated.cvv('4242421234567890', '11', '2029')).toBe(vault.cvv('4242421234567890', '11', '2029'));
  });

  it('hashes PANs with a key: stable, distinct per PAN and per key', () => {
    expect(vault.lookupHash('4242421234567890')).toBe(vault.lookupHash('4242421234567890'));
    expect(vault.lookupHash('4242421234567890')).not.toBe(vault.lookupHash('4242421234567891'));
    expect(new CardVault(Buffer.alloc(32, 9)).lookupHash('4242421234567890')).not.toBe(vault.lookupHash('4242421234567890'));
  });

  it('derives a stable three-digit CVV that depends on PAN and expiry', () => {
    const cvv = vault.cvv('4242421234567890', '11', '2029');
    expect(cvv).toMatch(/^\d{3}$/);
    expect(vault.cvv('4242421234567890', '11', '2029')).toBe(cvv);
    const others = new Set(Array.from({ length: 20 }, (_, i) => vault.cvv('4242421234567890', '11', String(2030 + i))));
    expect(others.size).toBeGreaterThan(10);
  });

  it('hashes PINs per card', () => {
    expect(vault.pinHash('card-1', '1234')).toBe(vault.pinHash('card-1', '1234'));
    expect(vault.pinHash('card-1', '1234')).not.toBe(vault.pinHash('card-2', '1234'));
    expect(vault.pinHash('card-1', '1234')).not.toContain('1234');
  });

  it('protects a PAN into last four, lookup hash and ciphertext only', () => {
    const secrets = vault.protect('4242421234567890');
    expect(secrets.lastFour).toBe('7890');
    expect(JSON.stringify(secrets)).not.toContain('4242421234567890');
  });

  it('parses hex and base64 keys and refuses other lengths', () => {
    expect(parseCardDataKey('07'.repeat(32))).toEqual(key);
    expect(parseCardDataKey(key.toString('base64'))).toEqual(key);
    expect(() => parseCardDataKey('abcd')).toThrow('32 bytes');
  });
});

describe('message seal', () => {
  const key = Buffer.alloc(32, 7);
  const seal = MessageSeal.derivedFrom(key, 'command-transport');

  it('opens what it sealed, in the same context; each seal differs', () => {
    const message = JSON.stringify({ pan: '4242424242424242', cvv: '123', pin: '9876' });
    const sealed = seal.seal(message, 'command ledger.commands.card-service');
    expect(sealed).not.toContain('4242');
    expect(seal.seal(message, 'command ledger.commands.card-service')).not.toBe(sealed);
    expect(seal.open(sealed, 'command ledger.commands.card-service')).toBe(message);
  });

  it('refuses another context, another key, another purpose and any change', () => {
    const sealed = seal.seal('{"pin":"9876"}', 'command a');
    expect(() => seal.open(sealed, 'reply a')).toThrow(MessageUnsealable);
    expect(() => MessageSeal.derivedFrom(Buffer.alloc(32, 8), 'command-transport').open(sealed, 'command a')).toThrow(/another key.*CARD_DATA_KEY/);
    expect(() => MessageSeal.derivedFrom(key, 'other').open(sealed, 'command a')).toThrow(/another key/);
    const parts = sealed.split('.');
    parts[4] = Buffer.from('{"pin":"0000"}').toString('base64url');
    expect(() => seal.open(parts.join('.'), 'command a')).toThrow(/altered/);
    expect(() => seal.open('{"pin":"9876"}', 'command a')).toThrow(/not a sealed message/);
  });
});
