import { useEffect, useState } from 'preact/hooks';

/** Pages live in the URL's fragment (#/cards/…), so the service serves one page and reloads keep the place. */
export function useRoute(): string[] {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  return parts.length > 0 ? parts : ['cards'];
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;
