import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A secret the embedded default makes on first start and keeps in the data folder (mode 600), so
 * the same sandbox key and card data key work across restarts. Production sets them explicitly.
 *
 * Several processes of the distributed set may start at once on one data folder: the secret is
 * written whole to a file of this process's own, then linked to its name, which either appears whole
 * or was already there. The process that loses the race takes the winner's value.
 */
export function keptSecret(dataDir: string, fileName: string, make: () => string): { value: string; created: boolean } {
  const file = path.join(dataDir, fileName);
  const kept = readKept(file);
  if (kept !== null) return { value: kept, created: false };
  mkdirSync(dataDir, { recursive: true });
  const value = make();
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(draft, `${value}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(draft, file);
    return { value, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { value: readFileSync(file, 'utf8').trim(), created: false };
  } finally {
    unlinkSync(draft);
  }
}

function readKept(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return null;
  }
}
