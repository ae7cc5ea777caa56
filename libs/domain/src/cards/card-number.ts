/** Card numbers: 16 digits whose last digit is the Luhn check digit of the first 15. */
export const CARD_NUMBER_LENGTH = 16;

export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  // Walking from the right, every second digit starting with the rightmost payload digit is doubled.
  for (let i = payload.length - 1, double = true; i >= 0; i--, double = !double) {
    let digit = payload.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidCardNumber(pan: string): boolean {
  if (!/^\d{16}$/.test(pan)) return false;
  return luhnCheckDigit(pan.slice(0, -1)) === Number(pan[pan.length - 1]);
}

/**
 * Builds a card number from the issuer prefix (BIN) and random digits chosen by the caller, so the
 * domain stays free of randomness.
 */
export function cardNumberFrom(binPrefix: string, randomDigits: string): string {
  const payloadLength = CARD_NUMBER_LENGTH - 1;
  if (!/^\d{1,8}$/.test(binPrefix)) throw new Error('BIN prefix must be 1 to 8 digits');
  const payload = (binPrefix + randomDigits).slice(0, payloadLength);
  if (!/^\d+$/.test(payload) || payload.length !== payloadLength) {
    throw new Error(`Need ${payloadLength - binPrefix.length} random digits`);
  }
  return payload + String(luhnCheckDigit(payload));
}
