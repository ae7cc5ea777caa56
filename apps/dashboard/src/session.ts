/** The api-key lives in sessionStorage: it is entered once per tab and gone when the tab closes. */
const KEY = 'card-ledger.api-key';

export function savedApiKey(): string | null {
  return sessionStorage.getItem(KEY);
}

export function saveApiKey(apiKey: string): void {
  sessionStorage.setItem(KEY, apiKey.trim().replace(/^api-key\s+/i, ''));
}

export function forgetApiKey(): void {
  sessionStorage.removeItem(KEY);
}
