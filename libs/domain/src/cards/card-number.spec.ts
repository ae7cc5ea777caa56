import { cardNumberFrom, isValidCardNumber, luhnCheckDigit } from './card-number';

describe('card numbers', () => {
  it('computes the Luhn check digit of known numbers', () => {
    expect(luhnCheckDigit('411111111111111')).toBe(1); // 4111 1111 1111 1111
    expect(luhnCheckDigit('555555555555444')).toBe(4); // 5555 5555 5555 4444
    expect(luhnCheckDigit('7992739871')).toBe(3); // the textbook example
  });

  it('accepts only 16 digits with a valid check digit', () => {
    expect(isValidCardNumber('4111111111111111')).toBe(true);
    expect(isValidCardNumber('4111111111111112')).toBe(false);
    expect(isValidCardNumber('411111111111111')).toBe(false);
    expect(isValidCardNumber('41111111111111110')).toBe(false);
    expect(isValidCardNumber('4111a11111111111')).toBe(false);
  });

  it('builds valid numbers from a BIN and random digits', () => {
    const pan = cardNumberFrom('424242', '123456789');
    expect(pan).toHaveLength(16);
    expect(pan.startsWith('424242123456789')).toBe(true);
    expect(isValidCardNumber(pan)).toBe(true);
  });

  it('refuses too few random digits', () => {
    expect(() => cardNumberFrom('424242', '12345')).toThrow('Need 9 random digits');
  });
});
