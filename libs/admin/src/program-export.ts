import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { EventStore, formatPosition, RecordedEvent } from '@ledger/event-store';
import { inclusionPathOf, SignedDigest, treeRoot } from '@ledger/ledger-proof';
import { type DigestKeys, readLedgerLeaves } from '@ledger/runtime';
import { DigestFile, takeDigestFile } from './ledger-audit';

/**
 * A program's streams as JSON Lines: first `{"digest": ...}`, the signed digest of the log (a fresh
 * one, or the auditor's saved digest with --digest), then one recorded event per line in log order,
 * exactly as stored, each with `proof`, its inclusion proof against that digest: what `verify --file`
 * checks offline, without access to the service or the rest of the log. Unlike the audit API it keeps
 * the secret fields' stored values (PAN ciphertext, keyed hashes; never a clear PAN, CVV or PIN),
 * since every hash is over them: an operator's file, handled as card data. An auditor matches its
 * values to the digests the audit API shows (docs/decisions.md, "Secrets at the edges").
 */
export async function exportProgram(store: EventStore, keys: DigestKeys, programToken: string, file: string, saved: DigestFile | null = null): Promise<{ file: string; events: number; streams: number; digest: SignedDigest }> {
  const owned: { event: RecordedEvent; index: number }[] = [];
  const log = await readLedgerLeaves(store, {
    limit: saved?.tree_size,
    visit: (event, index) => {
      if (event.metadata.programToken === programToken) owned.push({ event, index });
    },
  });
  const digest = saved ? stripLeaves(saved) : stripLeaves(takeDigestFile(log, keys));
  if (saved && (log.leaves.length !== saved.tree_size || treeRoot(log.leaves).toString('hex') !== saved.root)) {
    throw new Error(`the log no longer matches the digest of ${saved.tree_size} events: run verify --digest to find where`);
  }
  const out = createWriteStream(file, { encoding: 'utf8' });
  const streams = new Set<string>();
  out.write(`${JSON.stringify({ digest })}\n`);
  for (const { event, index } of owned) {
    const line = JSON.stringify({
      stream_id: event.streamId,
      stream_version: event.streamVersion,
      position: formatPosition(event.position),
      type: event.type,
      schema_version: event.schemaVersion,
      data: event.data,
      metadata: event.metadata,
      recorded_at: event.recordedAt,
      proof: inclusionPathOf(log.leaves, index, digest.tree_size),
    });
    if (!out.write(`${line}\n`)) await once(out, 'drain');
    streams.add(event.streamId);
  }
  out.end();
  await once(out, 'finish');
  return { file, events: owned.length, streams: streams.size, digest };
}

function stripLeaves(digest: DigestFile): SignedDigest {
  const { leaf_hashes: _leaves, ...signed } = digest;
  return signed;
}
