import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A secret the embedded default makes on first start and keeps in the data folder (mode 600), so
 * the same sandbox key and card data key work across restarts. Production sets them explicitly.
 */
export function keptSecret(dataDir: string, fileName: string, make: () => string): { value: string; created: boolean } {
  const file = path.join(dataDir, fileName);
  try {
    return { value: readFileSync(file, 'utf8').trim(), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const value = make();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return { value, created: true };
}
