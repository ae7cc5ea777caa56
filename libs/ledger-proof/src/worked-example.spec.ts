import { eventHash } from '@ledger/event-store';
import { leafContent, leafHash } from './leaf-hash';
import { consistencyProof, inclusionProof, treeRoot } from './merkle-tree';
import { DigestSigner, digestSigningBytes } from './signed-digest';
import { WORKED_EXAMPLE_KEY, workedExampleLog } from './worked-example';

/** The values docs/audit.md shows: computed here, so that the document is the code's output. */
function workedExample() {
  const hashes: string[] = [];
  const draft = workedExampleLog(['', '', '']);
  const previous = ['0'.repeat(64), null, '0'.repeat(64)];
  draft.forEach((event, i) => {
    const previousHash = previous[i] ?? hashes[i - 1];
    hashes.push(eventHash(previousHash, { ...event, metadata: { ...event.metadata, previousHash } }));
  });
  const log = workedExampleLog(hashes);
  const leaves = log.map(leafHash);
  const digest = new DigestSigner(WORKED_EXAMPLE_KEY).sign({ tree_size: 3, position: '102/3', root: treeRoot(leaves).toString('hex'), signed_at: '2026-01-01T00:00:10.000Z' });
  return {
    perStreamHashes: hashes,
    leafBytes0: leafContent(log[0]).toString('utf8'),
    leafHashes: leaves.map((leaf) => leaf.toString('hex')),
    rootOf2: treeRoot(leaves, 2).toString('hex'),
    root: treeRoot(leaves).toString('hex'),
    inclusionOf1: inclusionProof(leaves, 1, 3).map((hash) => hash.toString('hex')),
    consistency2to3: consistencyProof(leaves, 2, 3).map((hash) => hash.toString('hex')),
    signingBytes: digestSigningBytes(digest).toString('utf8'),
    digest,
  };
}

it('computes the worked example of docs/audit.md', () => {
  const example = workedExample();
  if (process.env.PRINT_WORKED_EXAMPLE) process.stdout.write(`${JSON.stringify(example, null, 2)}\n`);
  expect(example).toEqual(EXPECTED);
});

const EXPECTED = {
  "perStreamHashes": [
    "44d40dfe0731b606ee7aeca625f9d5f2c21699b54d71ee294022c10364b86963",
    "5f3e84c2730bcf38d190f3229bc2c5bd9e666d391481b3a2ad771dcf18e774e0",
    "63cd0cc3f706b151c37205922f2b11cbef2d6ed857f824165f9715a81044ab3b"
  ],
  "leafBytes0": "{\"data\":{\"cardToken\":\"1\",\"spendLimit\":5000},\"event_id\":\"00000000-0000-4000-8000-000000000001\",\"metadata\":{\"causationId\":null,\"correlationId\":\"00000000-0000-4000-8000-0000000000c1\",\"eventId\":\"00000000-0000-4000-8000-000000000001\",\"hash\":\"44d40dfe0731b606ee7aeca625f9d5f2c21699b54d71ee294022c10364b86963\",\"occurredAt\":\"2026-01-01T00:00:00.000Z\",\"previousHash\":\"0000000000000000000000000000000000000000000000000000000000000000\",\"programToken\":\"00000000-0000-4000-8000-0000000000a1\"},\"position\":\"100/1\",\"schema_version\":1,\"stream_id\":\"card-1\",\"stream_version\":0,\"type\":\"CardCreated\"}",
  "leafHashes": [
    "98dd317d7c3273142ca02c8030551fcf2dacf8e770cae803bae5ce8e8994f2b3",
    "e11a384a4de1413ab8ae4bda1746c5825489fb1386be2f3a3e4822749c05a6b4",
    "7416a22916c7bceb0bd0a206b8f6c8302f0be7aa0e85e52b9a16082af7b25c75"
  ],
  "rootOf2": "0536e9d39cb58f0899f1f7bd44578fcbb568c79cef747277f7a513675925e6b5",
  "root": "88532ea6fd38c53d7e8f41c0bcf9186fcfd429aa0614927eae0c87a3ffd3c351",
  "inclusionOf1": [
    "98dd317d7c3273142ca02c8030551fcf2dacf8e770cae803bae5ce8e8994f2b3",
    "7416a22916c7bceb0bd0a206b8f6c8302f0be7aa0e85e52b9a16082af7b25c75"
  ],
  "consistency2to3": [
    "7416a22916c7bceb0bd0a206b8f6c8302f0be7aa0e85e52b9a16082af7b25c75"
  ],
  "signingBytes": "ledger-digest-v1\n3\n102/3\n88532ea6fd38c53d7e8f41c0bcf9186fcfd429aa0614927eae0c87a3ffd3c351\n2026-01-01T00:00:10.000Z\n56475aa75463474c",
  "digest": {
    "tree_size": 3,
    "position": "102/3",
    "root": "88532ea6fd38c53d7e8f41c0bcf9186fcfd429aa0614927eae0c87a3ffd3c351",
    "signed_at": "2026-01-01T00:00:10.000Z",
    "key_id": "56475aa75463474c",
    "public_key": "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8",
    "signature": "6db4073ad77ebcc4198e7bc7630e9e1608d1c0d17c19b2242aa5ea9e0bf8e83a35da8948295284f0b6c7b8f5ce11557892f903ee78aedf3259f8c80ccb90b503"
  }
};
