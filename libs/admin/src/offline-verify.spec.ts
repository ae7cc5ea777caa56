import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventHash, GENESIS_HASH } from '@ledger/event-store';
import { DigestSigner, exportedEventOf, inclusionPathOf, leafHash, LoggedEvent, treeRoot, WORKED_EXAMPLE_KEY, workedExampleLog } from '@ledger/ledger-proof';
import { runOfflineVerify } from './admin-commands';

/**
 * `verify --file` and `verify --proof` with no database and no service: files made from the worked
 * example's log (docs/audit.md), checked by the same entry point the CLI runs before it connects.
 */
function chainedLog(): LoggedEvent[] {
  const hashes: string[] = [];
  workedExampleLog(['', '', '']).forEach((event, i) => {
    const previousHash = i === 1 ? hashes[0] : GENESIS_HASH;
    hashes.push(eventHash(previousHash, { ...event, metadata: { ...event.metadata, previousHash } }));
  });
  return workedExampleLog(hashes);
}

let dir: string;
let key: string;
const files = { digest: '', export: '', proof: '' };
const log = chainedLog();
const leaves = log.map(leafHash);
const signer = new DigestSigner(WORKED_EXAMPLE_KEY);
const digest = signer.sign({ tree_size: 3, position: '102/3', root: treeRoot(leaves).toString('hex'), signed_at: '2026-01-01T00:00:10.000Z' });
const exportLines = log.map((event, i) => ({ ...exportedEventOf(event), proof: inclusionPathOf(leaves, i, 3) }));

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ledger-offline-'));
  key = signer.publicKey.toString('hex');
  files.digest = path.join(dir, 'digest.json');
  files.export = path.join(dir, 'export.jsonl');
  files.proof = path.join(dir, 'proof.json');
  writeFileSync(files.digest, JSON.stringify(digest));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writeExport = (lines: unknown[]) => writeFileSync(files.export, [{ digest }, ...lines].map((line) => JSON.stringify(line)).join('\n'));
const verifyExport = () => runOfflineVerify(['verify', '--file', files.export, '--digest', files.digest, '--key', key], [])!;
const verifyProof = (proof: unknown) => {
  writeFileSync(files.proof, JSON.stringify(proof));
  return runOfflineVerify(['verify', '--proof', files.proof, '--digest', files.digest, '--key', key], [])!;
};

it('accepts an export and a single proof made from the log the digest signs', async () => {
  writeExport(exportLines);
  expect(await verifyExport()).toMatchObject({ ok: true, output: { intact: true, events_checked: 3 } });
  for (let i = 0; i < 3; i++) expect(await verifyProof({ event: exportLines[i], ...exportLines[i].proof })).toMatchObject({ ok: true });
});

it.each([
  ['edited data', (lines: any[]) => [lines[0], { ...lines[1], data: { amount: 1 } }, lines[2]], 2, '101/2'],
  ['edited metadata', (lines: any[]) => [lines[0], { ...lines[1], metadata: { ...lines[1].metadata, occurredAt: '2020-01-01T00:00:00.000Z' } }, lines[2]], 2, '101/2'],
  ['swapped lines', (lines: any[]) => [lines[1], lines[0], lines[2]], 1, '101/2'],
  ['a line moved to another position', (lines: any[]) => [lines[0], lines[1], { ...lines[2], position: '103/4' }], 3, '103/4'],
  ['a dropped line', (lines: any[]) => [lines[1], lines[2]], 1, '101/2'],
])('names the first line of an export with %s', async (_name, tamper, line, position) => {
  writeExport(tamper(exportLines));
  expect(await verifyExport()).toMatchObject({ ok: false, output: { intact: false, first_mismatch: { line: line + 1, position } } });
});

it('refuses a proof of an altered event, of another index, and one checked against an untrusted key', async () => {
  const proof = { event: exportLines[1], ...exportLines[1].proof };
  expect(await verifyProof({ ...proof, event: { ...proof.event, data: { amount: 1 } } })).toMatchObject({ ok: false, output: { first_mismatch: { position: '101/2' } } });
  expect(await verifyProof({ ...proof, leaf_index: 0 })).toMatchObject({ ok: false });
  writeFileSync(files.proof, JSON.stringify(proof));
  const other = new DigestSigner(generateKeyPairSync('ed25519').privateKey).publicKey.toString('hex');
  expect(await runOfflineVerify(['verify', '--proof', files.proof, '--digest', files.digest, '--key', other], [])!).toMatchObject({ ok: false, output: { first_mismatch: { reason: expect.stringContaining('not one of the trusted keys') } } });
});
