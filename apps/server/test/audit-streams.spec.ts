import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runAdminCommand } from '@ledger/admin';
import { startTestLedger, TestLedger } from './test-ledger';

/** Auditors read a program's raw streams over the API, and export them for offline verification. */
describe('stream access and export for auditors', () => {
  let u: TestLedger;
  beforeAll(async () => {
    u = await startTestLedger({ RECONCILER_LAG_MS: '0' });
  });
  afterAll(async () => {
    await u?.stop();
  });

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

  it('exports a program as JSON Lines that verify offline, and names a line edited afterwards', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ledger-export-'));
    try {
      const programToken = (await u.call('GET', '/v1/accounts')).body.data[0].token;
      const file = path.join(dir, 'program.jsonl');
      const exported = await runAdminCommand(u.ledger.app, ['export', '--program', programToken, '--out', file]);
      expect(exported.output).toMatchObject({ file, events: expect.any(Number), streams: expect.any(Number) });
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      expect(lines.length).toBe((exported.output as { events: number }).events);
      expect(lines.every((line) => JSON.parse(line).metadata.programToken === programToken)).toBe(true);
      expect((await runAdminCommand(u.ledger.app, ['verify', '--file', file])).ok).toBe(true);

      const index = lines.findIndex((line) => JSON.parse(line).type === 'TransactionCleared');
      const edited = JSON.parse(lines[index]);
      edited.data.amount += 1;
      lines[index] = JSON.stringify(edited);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const broken = await runAdminCommand(u.ledger.app, ['verify', '--file', file]);
      expect(broken.ok).toBe(false);
      expect(broken.output).toMatchObject({ firstBreak: { streamId: edited.stream_id, streamVersion: edited.stream_version } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
