import { EventStore, verifyChains } from '@ledger/event-store';
import { EVENT_STORE } from '@ledger/runtime';
import { runAdminCommand } from '@ledger/admin';
import { startTestLedger, TestLedger } from './test-ledger';

/** Tamper evidence: a clean store verifies; one edited event is named by `verify`. */
let t: TestLedger;
beforeAll(async () => {
  t = await startTestLedger({});
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', spend_limit: 5000 } })).body;
  for (const amount of [100, 200, 300]) await t.call('POST', '/v1/simulate/authorize', { body: { pan: card.pan, amount, descriptor: 'Shop' } });
  await t.call('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'audited' } });
});
afterAll(async () => {
  await t?.stop();
});

it('chains every event of every stream and verifies a clean store', async () => {
  const outcome = await runAdminCommand(t.ledger.app, ['verify']);
  expect(outcome.ok).toBe(true);
  expect(outcome.output).toMatchObject({ intact: true, firstBreak: null, events: expect.any(Number), streams: expect.any(Number) });
  const events = await t.pool.query(`select metadata from events`);
  expect(events.rows.every((row) => /^[0-9a-f]{64}$/.test(row.metadata.hash) && /^[0-9a-f]{64}$/.test(row.metadata.previousHash))).toBe(true);
});

it('names the event after one that was deleted from the middle of a stream', async () => {
  const card = (await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET' } })).body;
  for (const state of ['PAUSED', 'OPEN', 'PAUSED']) await t.call('PATCH', `/v1/cards/${card.token}`, { body: { state } });
  const streamId = `card-${card.token}`;
  await t.pool.query(`delete from events where stream_id = $1 and stream_version = 1`, [streamId]);
  const report = await verifyChains(t.ledger.app.get<EventStore>(EVENT_STORE));
  expect(report.firstBreak).toMatchObject({ streamId, streamVersion: 2, reason: expect.stringContaining('missing') });
});

it('names the event whose data was edited directly in the table', async () => {
  const victim = (
    await t.pool.query(`select event_id, stream_id, stream_version from events where event_type = 'CardAuthorizationApproved' order by global_position limit 1 offset 1`)
  ).rows[0];
  await t.pool.query(`update events set data = jsonb_set(data, '{amount}', '1') where event_id = $1`, [victim.event_id]);
  const report = await verifyChains(t.ledger.app.get<EventStore>(EVENT_STORE));
  expect(report.firstBreak).toEqual({
    streamId: victim.stream_id,
    streamVersion: victim.stream_version,
    eventId: victim.event_id,
    reason: expect.stringContaining('altered'),
  });
  const outcome = await runAdminCommand(t.ledger.app, ['verify']);
  expect(outcome.ok).toBe(false);
});

