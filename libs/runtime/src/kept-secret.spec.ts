import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { keptSecret } from './kept-secret';

describe('keptSecret', () => {
  const folder = () => mkdtempSync(path.join(tmpdir(), 'kept-secret-'));

  it('makes the secret once, mode 600, and answers the kept one after', () => {
    const dir = folder();
    expect(keptSecret(dir, 'key', () => 'first')).toEqual({ value: 'first', created: true });
    expect(keptSecret(dir, 'key', () => 'second')).toEqual({ value: 'first', created: false });
    expect(statSync(path.join(dir, 'key')).mode & 0o777).toBe(0o600);
  });

  it("takes the other process's secret when it was kept while this one was making its own, and leaves no draft", () => {
    const dir = folder();
    // Another process of the distributed set wins between this one's look and its write.
    const made = keptSecret(dir, 'key', () => {
      writeFileSync(path.join(dir, 'key'), 'winner\n', { mode: 0o600 });
      return 'loser';
    });
    expect(made).toEqual({ value: 'winner', created: false });
    expect(readFileSync(path.join(dir, 'key'), 'utf8')).toBe('winner\n');
    expect(readdirSync(dir)).toEqual(['key']);
  });
});
