import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import { PostgresEventStore, type RecordedEvent } from '@ledger/event-store';
import { ReadModelProjector } from '@ledger/projector';
import { createReadModelClient } from '@ledger/read-model';
import { ProjectionWatcher } from '@ledger/runtime';
import { truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { WebhookEnqueuer, WebhookOutboxFeeder } from '@ledger/webhooks';
import { EventFeedWriter } from '../../../../libs/webhooks/src/events/event-feed-writer';
import { startTestLedger } from '../test-ledger';

const FIXTURE = path.join(__dirname, 'fixture-events.json');
const GOLDEN = path.join(__dirname, 'golden-outputs.json');

const run = process.env.RECORD_DERIVED_OUTPUTS ? it : it.skip;

run('records the scenario events', async () => {
  const t = await startTestLedger({ RECONCILER_LAG_MS: '0', RATE_LIMIT_PER_SECOND: '0' });
  try {
    const hook = 'http://127.0.0.1:9/hook';
    await t.call('POST', '/v1/event_subscriptions', { body: { url: hook } });
    const cards = [];
    for (const body of [
      { type: 'DIGITAL_WALLET', spend_limit: 20_000, spend_limit_duration: 'MONTHLY', memo: 'first' },
      { type: 'DIGITAL_WALLET', spend_limit: 3_000, spend_limit_duration: 'FOREVER' },
      { type: 'MERCHANT_LOCKED' },
      { type: 'SINGLE_USE', spend_limit: 500, spend_limit_duration: 'TRANSACTION' },
    ]) cards.push((await t.call('POST', '/v1/cards', { body })).body);
    await t.call('PATCH', `/v1/cards/${cards[0].token}`, { body: { memo: 'renamed', spend_limit: 25_000 } });
    const authorize = (pan: string, amount: number, descriptor: string) => t.call('POST', '/v1/simulate/authorize', { body: { pan, amount, descriptor } });
    for (let i = 0; i < 40; i++) {
      const card = cards[i % cards.length];
      if (i === 17) await t.call('POST', '/v1/event_subscriptions', { body: { url: hook, event_types: ['card_transaction.updated'] } });
      if (i === 21) await t.call('PATCH', `/v1/cards/${cards[1].token}`, { body: { state: 'PAUSED' } });
      if (i === 26) await t.call('PATCH', `/v1/cards/${cards[1].token}`, { body: { state: 'OPEN' } });
      const answer = await authorize(card.pan, 50 + ((i * 37) % 700), i % 7 === 0 ? 'Other Shop' : 'Main Shop');
      const token = answer.body.token;
      if (answer.status !== 200) continue;
      if (i % 5 === 1) await t.call('POST', '/v1/simulate/void', { body: { token, amount: 10 } });
      if (i % 5 === 2) await t.call('POST', '/v1/simulate/clearing', { body: { token, amount: 40 } });
      if (i % 9 === 3) await t.call('POST', '/v1/simulate/authorization_advice', { body: { token, amount: 75 } });
      if (i % 11 === 4) {
        const returned = await t.call('POST', '/v1/simulate/return', { body: { pan: card.pan, amount: 30, descriptor: 'Refund' } });
        if (i === 15) await t.call('POST', '/v1/simulate/return_reversal', { body: { token: returned.body.token } });
      }
    }
    const refund = await t.call('POST', '/v1/simulate/return', { body: { pan: cards[0].pan, amount: 120, descriptor: 'Refund' } });
    await t.call('POST', '/v1/simulate/return_reversal', { body: { token: refund.body.token } });
    await t.call('POST', '/v1/simulate/settle', { body: {} });
    await t.call('PATCH', `/v1/cards/${cards[2].token}`, { body: { state: 'CLOSED' } });
    const { rows } = await t.pool.query(
      `select stream_id, stream_version, event_type, schema_version, data, metadata from events order by transaction_id, global_position`,
    );
    writeFileSync(FIXTURE, JSON.stringify(rows, null, 1) + '\n');
  } finally {
    await t.stop();
  }
});

run('records what the followers derive from them, one event at a time', async () => {
  const pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 4 });
  await truncateAll(pool);
  const store = new PostgresEventStore(pool);
  await store.migrate();
  const readModel = createReadModelClient(pool);
  const watcher = new ProjectionWatcher(pool);
  await watcher.start();
  try {
    const fixture = require(FIXTURE) as { stream_id: string; stream_version: number; event_type: string; schema_version: number; data: unknown; metadata: any }[];
    for (const row of fixture) {
      await store.append(row.stream_id, [{ type: row.event_type, schemaVersion: row.schema_version, data: row.data, metadata: row.metadata }], row.stream_version === 0 ? -1 : row.stream_version - 1);
    }
    const events: RecordedEvent[] = await store.readAll({ maxCount: 100_000 } as never);
    const projector = new ReadModelProjector(store, readModel, { pool });
    const feed = new EventFeedWriter(store, readModel, watcher);
    const outbox = new WebhookOutboxFeeder(store, readModel, watcher, new WebhookEnqueuer([0], store));
    for (const event of events) {
      await projector.project([event]);
      await feed.feed([event]);
      await outbox.feed([event]);
    }
    writeFileSync(GOLDEN, JSON.stringify(await derivedOutputs(pool), null, 1) + '\n');
  } finally {
    await watcher.stop();
    await store.close();
    await readModel.$disconnect();
    await pool.end();
  }
});

async function derivedOutputs(pool: Pool) {
  const feed = await pool.query(`select token, program_token, event_type, created, payload from feed_events order by commit_position, prepare_position`);
  const outbox = await pool.query(`select id, event_id, subscription_token, program_token, event_type, body from webhook_messages order by event_id, subscription_token`);
  return { feed: feed.rows, outbox: outbox.rows };
}
