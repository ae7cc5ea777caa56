const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string): Intl.NumberFormat {
  let formatter = formatters.get(currency);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    } catch {
      // An unknown code still shows as an amount with the code beside it.
      formatter = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'XXX', currencyDisplay: 'code' });
    }
    formatters.set(currency, formatter);
  }
  return formatter;
}

/**
 * Integer minor units in, money out: 12345 USD is "$123.45", 500 JPY is "¥500" (the currency's own
 * number of decimals, as Intl knows it). The division is exact for every amount below 2^53.
 */
export function money(minorUnits: number | string | null | undefined, currency = 'USD'): string {
  if (minorUnits === null || minorUnits === undefined || minorUnits === '') return '';
  const formatter = formatterFor(currency);
  const digits = formatter.resolvedOptions().maximumFractionDigits ?? 2;
  return formatter.format(Number(minorUnits) / 10 ** digits);
}

/** "12.34" typed by a user to integer cents (1234); null when it is not an amount. */
export function parseMoney(text: string): number | null {
  const match = /^\s*(\d+)(?:[.,](\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** Integer cents to the text a money input shows ("12.34"). */
export function centsToInput(cents: number): string {
  return (cents / 100).toFixed(2);
}
