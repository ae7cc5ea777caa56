import { createPrivateKey } from 'node:crypto';
import type { LoggedEvent } from './leaf-hash';

/**
 * The three-event log of docs/audit.md's worked example, and the fixed key that signs its digest
 * (Ed25519 seed 00 01 02 ... 1f: an example, never a key to use). worked-example.spec.ts holds the
 * values the document shows, so the document cannot drift from the code.
 */
export const WORKED_EXAMPLE_KEY = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(Array.from({ length: 32 }, (_, i) => i))]),
  format: 'der',
  type: 'pkcs8',
});

const metadata = (eventId: string, previousHash: string, hash: string) => ({
  eventId,
  correlationId: '00000000-0000-4000-8000-0000000000c1',
  causationId: null,
  programToken: '00000000-0000-4000-8000-0000000000a1',
  occurredAt: '2026-01-01T00:00:00.000Z',
  previousHash,
  hash,
});

/** Per-stream hashes as hash-chain.ts computes them; worked-example.spec.ts checks them too. */
export function workedExampleLog(hashes: readonly string[]): LoggedEvent[] {
  const genesis = '0'.repeat(64);
  return [
    { streamId: 'card-1', streamVersion: 0, position: '100/1', type: 'CardCreated', schemaVersion: 1, data: { cardToken: '1', spendLimit: 5000 }, metadata: metadata('00000000-0000-4000-8000-000000000001', genesis, hashes[0]) },
    { streamId: 'card-1', streamVersion: 1, position: '101/2', type: 'CardAuthorizationApproved', schemaVersion: 1, data: { amount: 300 }, metadata: metadata('00000000-0000-4000-8000-000000000002', hashes[0], hashes[1]) },
    { streamId: 'card-2', streamVersion: 0, position: '102/3', type: 'CardCreated', schemaVersion: 1, data: { cardToken: '2', spendLimit: 0 }, metadata: metadata('00000000-0000-4000-8000-000000000003', genesis, hashes[2]) },
  ];
}
