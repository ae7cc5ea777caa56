import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { ChainReport, ChainVerifier, EventStore, formatPosition, GlobalPosition } from '@ledger/event-store';

/**
 * A program's streams as JSON Lines, one recorded event per line in log order, exactly as stored:
 * what `verify --file` checks offline, without access to the service.
 */
export async function exportProgram(store: EventStore, programToken: string, file: string): Promise<{ file: string; events: number; streams: number }> {
  const out = createWriteStream(file, { encoding: 'utf8' });
  const streams = new Set<string>();
  let events = 0;
  let after: GlobalPosition | null = null;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: 2000 });
    if (batch.length === 0) break;
    for (const event of batch) {
      if (event.metadata.programToken !== programToken) continue;
      const line = JSON.stringify({
        stream_id: event.streamId,
        stream_version: event.streamVersion,
        position: formatPosition(event.position),
        type: event.type,
        schema_version: event.schemaVersion,
        data: event.data,
        metadata: event.metadata,
        recorded_at: event.recordedAt,
      });
      if (!out.write(`${line}\n`)) await once(out, 'drain');
      streams.add(event.streamId);
      events++;
    }
    after = batch[batch.length - 1].position;
  }
  out.end();
  await once(out, 'finish');
  return { file, events, streams: streams.size };
}

export async function verifyExport(file: string): Promise<ChainReport> {
  const verifier = new ChainVerifier();
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const event = JSON.parse(line);
    verifier.check({
      streamId: event.stream_id,
      streamVersion: event.stream_version,
      type: event.type,
      schemaVersion: event.schema_version,
      data: event.data,
      metadata: event.metadata,
    });
    if (verifier.firstBreak) break;
  }
  return verifier.report();
}
