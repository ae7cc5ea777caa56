import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { runAdminCommand } from '@ledger/admin';
import { SECRET_EVENT_FIELDS } from '@ledger/contracts';
import { canonicalJson, eventHash, EventStore, GENESIS_HASH } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';
import { ledgerForTests } from './test-ledger';

/** Every value stored under a secret field name, at any depth. */
function secretValues(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(secretValues);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => (SECRET_EVENT_FIELDS.has(key) && inner !== null ? [inner] : secretValues(inner)));
}

const isRedacted = (value: unknown): value is { redacted: true; sha256: string } =>
  typeof value === 'object' && value !== null && (value as { redacted?: unknown }).redacted === true;

/**
 * What an auditor does with an event the API shows redacted: finds the same field in the operator's
 * export, checks that its digest is the one the API shows, and puts the exported value in its place.
 */
function unredact(shown: unknown, exported: unknown): unknown {
  if (isRedacted(shown)) {
    expect(createHash('sha256').update(canonicalJson(exported)).digest('hex')).toBe(shown.sha256);
    return exported;
  }
  if (Array.isArray(shown)) return shown.map((item, i) => unredact(item, (exported as unknown[])[i]));
  if (shown === null || typeof shown !== 'object') return shown;
  return Object.fromEntries(Object.entries(shown).map(([key, inner]) => [key, unredact(inner, (exported as Record<string, unknown>)[key])]));
}

/** Auditors read a program's raw streams over the API, and export them for offline verification. */
describe('stream access and export for auditors', () => {
  const u = ledgerForTests({});

  it("gives a program its card's and transaction's raw events in order, with positions and hashes, and 404 to others", async () => {
    const card = (await u.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
    const tx = (await u.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 100, descriptor: 'Shop' } })).body.token;
    await u.call('POST', '/v1/simulate/clearing', { body: { token: tx, amount: 100 } });
    const cardEvents = (await u.call('GET', `/v1/cards/${card.token}/events`)).body.data;
    expect(cardEvents.map((e: any) => [e.stream_version, e.type])).toEqual([
      [0, 'CardCreated'],
      [1, 'CardAuthorizationApproved'],
      [2, 'CardSpendAdjusted'],
    ]);
    expect(cardEvents[1].metadata.previousHash).toBe(cardEvents[0].metadata.hash);
    expect(cardEvents[0]).toMatchObject({ position: expect.stringMatching(/^\d+\/\d+$/), event_id: expect.any(String), schema_version: 1 });
    expect(JSON.stringify(cardEvents)).not.toContain(card.pan);
    const txEvents = (await u.call('GET', `/v1/transactions/${tx}/events`)).body.data;
    expect(txEvents.map((e: any) => e.type)).toEqual(['TransactionAuthorized', 'TransactionCleared']);
    const other = await u.createProgram('other-auditor');
    expect((await u.call('GET', `/v1/cards/${card.token}/events`, { apiKey: other.apiKey })).status).toBe(404);
    expect((await u.call('GET', `/v1/transactions/${tx}/events`, { apiKey: other.apiKey })).status).toBe(404);
  });

  it('redacts every secret field it shows; an auditor verifies every hash, with the export for the redacted events', async () => {
    const card = (await u.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', pin: '4321' } })).body;
    await u.call('PATCH', `/v1/cards/${card.token}`, { body: { pin: '8765', memo: 'new PIN' } });
    const tx = (await u.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount: 100, descriptor: 'Shop' } })).body.token;
    const shown = [
      ...(await u.call('GET', `/v1/cards/${card.token}/events`)).body.data,
      ...(await u.call('GET', `/v1/transactions/${tx}/events`)).body.data,
    ] as { stream_id: string; stream_version: number; event_id: string; type: string; schema_version: number; data: unknown; metadata: any }[];

    // Nothing stored under a secret field reaches the answer: the PAN's ciphertext and lookup hash, both PIN hashes.
    const store = u.ledger.app.get<EventStore>(EVENT_STORE);
    const stored = [...(await store.readStream(`card-${card.token}`)), ...(await store.readStream(`transaction-${tx}`))];
    const secrets = stored.flatMap((event) => secretValues(event.data));
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    const answer = JSON.stringify(shown);
    for (const secret of secrets) expect(answer).not.toContain(JSON.stringify(secret));
    expect(answer).not.toContain(card.pan);
    expect(shown[0]).toMatchObject({ type: 'CardCreated', data: { panHash: { redacted: true }, panEncrypted: { redacted: true }, pinHash: { redacted: true } } });
    expect(shown[1]).toMatchObject({ type: 'CardDetailsChanged', data: { memo: 'new PIN', pinHash: { redacted: true } } });

    // The auditor: every link from the API alone; every event without a redaction recomputed from the
    // API alone; every redacted one recomputed after matching the export's values to the digests.
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-audit-'));
    try {
      const programToken = (await u.call('GET', '/v1/accounts')).body.data[0].token;
      const file = path.join(dir, 'program.jsonl');
      expect((await runAdminCommand(u.ledger.app, ['export', '--program', programToken, '--out', file])).ok).toBe(true);
      const exported = new Map(
        readFileSync(file, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
          .filter((line) => !('digest' in line))
          .map((event) => [event.metadata.eventId as string, event]),
      );
      let redactedEvents = 0;
      for (const [i, event] of shown.entries()) {
        const previous = i > 0 && shown[i - 1].stream_id === event.stream_id ? shown[i - 1].metadata.hash : GENESIS_HASH;
        expect(event.metadata.previousHash).toBe(previous);
        const hasRedaction = JSON.stringify(event.data).includes('"redacted":true');
        if (hasRedaction) redactedEvents++;
        const data = hasRedaction ? unredact(event.data, exported.get(event.event_id).data) : event.data;
        const content = { streamId: event.stream_id, streamVersion: event.stream_version, type: event.type, schemaVersion: event.schema_version, data, metadata: event.metadata };
        expect({ event: `${event.stream_id}@${event.stream_version}`, hash: eventHash(previous, content) }).toEqual({
          event: `${event.stream_id}@${event.stream_version}`,
          hash: event.metadata.hash,
        });
      }
      expect(redactedEvents).toBe(2);
      expect(shown.length - redactedEvents).toBeGreaterThanOrEqual(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exports a program as JSON Lines that verify offline, and names a line edited afterwards', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-export-'));
    try {
      const programToken = (await u.call('GET', '/v1/accounts')).body.data[0].token;
      const file = path.join(dir, 'program.jsonl');
      const exported = await runAdminCommand(u.ledger.app, ['export', '--program', programToken, '--out', file]);
      expect(exported.output).toMatchObject({ file, events: expect.any(Number), streams: expect.any(Number) });
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(JSON.parse(lines[0]).digest).toMatchObject({ tree_size: expect.any(Number), root: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(lines.length).toBe((exported.output as { events: number }).events + 1);
      expect(lines.slice(1).every((line) => JSON.parse(line).metadata.programToken === programToken)).toBe(true);
      expect((await runAdminCommand(u.ledger.app, ['verify', '--file', file])).ok).toBe(true);

      const index = lines.findIndex((line) => JSON.parse(line).type === 'TransactionCleared');
      const edited = JSON.parse(lines[index]);
      edited.data.amount += 1;
      lines[index] = JSON.stringify(edited);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const broken = await runAdminCommand(u.ledger.app, ['verify', '--file', file]);
      expect(broken.ok).toBe(false);
      expect(broken.output).toMatchObject({ intact: false, first_mismatch: { line: index + 1, position: edited.position, stream: `${edited.stream_id}@${edited.stream_version}` } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
