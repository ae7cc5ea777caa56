import { randomUUID } from 'node:crypto';
import { Consumer, Kafka, logLevel } from 'kafkajs';
import { TOPICS } from '@ledger/contracts';
import { findSecrets, secretPatterns } from './secret-scan';
import { ApiAnswer, startTestLedger, TestLedger } from './test-ledger';
import { describeNeeding, eventually, LocalReceiver } from '@ledger/test-support';

/**
 * Design invariant 6, as the issue asks for it: after a full simulated card life with webhooks (and
 * Kafka, when KAFKA_BROKERS is set) a regex search for the card's PAN, its CVV as a value, its PIN and
 * the api-key over every table of the database, the JSON log lines, the Kafka topics and the webhook
 * bodies finds nothing. The PAN is stored only encrypted (pan_encrypted), which clear digits cannot match.
 */
const KAFKA_BROKERS = process.env.KAFKA_BROKERS;
const FAST_WEBHOOKS = { WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '2000' };
const PIN = '90817263';

const title = `leaves no PAN, CVV, PIN or api-key in the database, the logs, the webhook bodies${KAFKA_BROKERS ? ' or the Kafka topics' : ' (Kafka part skipped: KAFKA_BROKERS is not set)'}`;

// The Kafka part is optional on a developer machine; under CI=true a missing broker fails instead.
describeNeeding(KAFKA_BROKERS ? null : 'KAFKA_BROKERS is not set, so the Kafka topics are not scanned for secrets')('the secrets scan of the Kafka topics', () => {
  it('has a broker to scan', () => expect(KAFKA_BROKERS).toBeTruthy());
});

let t: TestLedger;
/** Answers every webhook 200; what it received is scanned. */
const receiver = new LocalReceiver();
const logLines: string[] = [];
const kafkaValues: string[] = [];
let consumer: Consumer | null = null;

beforeAll(async () => {
  await receiver.start();
  if (KAFKA_BROKERS) {
    const kafka = new Kafka({ clientId: 'secrets-scan', brokers: KAFKA_BROKERS.split(','), logLevel: logLevel.NOTHING });
    consumer = kafka.consumer({ groupId: `secrets-scan-${randomUUID()}` });
    await consumer.connect();
    const admin = kafka.admin();
    await admin.connect();
    const existing = await admin.listTopics();
    await admin.createTopics({ topics: Object.values(TOPICS).filter((topic) => !existing.includes(topic)).map((topic) => ({ topic, numPartitions: 3 })) });
    await admin.disconnect();
    await consumer.subscribe({ topics: Object.values(TOPICS), fromBeginning: false });
    await consumer.run({ eachMessage: async ({ message }) => void kafkaValues.push(message.value?.toString('utf8') ?? '') });
  }
  t = await startTestLedger(
    { ...FAST_WEBHOOKS, LOG_LEVEL: 'trace', RATE_LIMIT_PER_SECOND: '0', ...(KAFKA_BROKERS ? { KAFKA_BROKERS, WEBHOOK_KAFKA_GROUP_ID: `webhook-dispatcher-scan-${randomUUID()}` } : {}) },
    { logDestination: { write: (line: string) => void logLines.push(line) } },
  );
}, 60_000);

afterAll(async () => {
  await consumer?.disconnect();
  await t?.stop();
  await receiver.stop();
});

it(title, async () => {
  const ok = (answer: ApiAnswer, status = 200) => {
    expect({ status: answer.status, body: answer.body }).toEqual({ status, body: expect.anything() });
    return answer.body;
  };
  ok(await t.call('POST', '/v1/event_subscriptions', { body: { url: receiver.url('/hooks'), description: 'secrets scan' } }));

  // A whole card life: created with a PIN, authorizations presenting CVV, expiry and PIN, a void,
  // clearing, settlement, a return, declines for a wrong CVV and a wrong PIN, updates, and closing.
  const card = ok(await t.call('POST', '/v1/cards', { body: { type: 'DIGITAL_WALLET', memo: 'Scan me', spend_limit: 100_000, spend_limit_duration: 'MONTHLY', pin: PIN } }));
  expect(card.pan).toMatch(/^\d{16}$/);
  expect(card.cvv).toMatch(/^\d{3}$/);
  const presented = { pan: card.pan, cvv: card.cvv, exp_month: card.exp_month, exp_year: card.exp_year, pin: PIN };
  const first = ok(await t.call('POST', '/v1/simulate/authorize', { body: { ...presented, amount: 1500, descriptor: 'Coffee' } }));
  ok(await t.call('POST', '/v1/simulate/void', { body: { token: first.token, amount: 1500 } }));
  const second = ok(await t.call('POST', '/v1/simulate/authorize', { body: { ...presented, amount: 4200, descriptor: 'Books' } }));
  ok(await t.call('POST', '/v1/simulate/clearing', { body: { token: second.token, amount: 4200 } }));
  ok(await t.call('POST', '/v1/simulate/settle', { body: { token: second.token } }));
  ok(await t.call('POST', '/v1/simulate/return', { body: { pan: card.pan, amount: 1000, descriptor: 'Books refund' } }));
  const wrongCvv = String((Number(card.cvv) + 1) % 1000).padStart(3, '0');
  const declined = ok(await t.call('POST', '/v1/simulate/authorize', { body: { ...presented, cvv: wrongCvv, amount: 100, descriptor: 'Thief' } }), 422);
  expect(declined.message).toMatch(/INVALID_CARD_DETAILS/);
  ok(await t.call('POST', '/v1/simulate/authorize', { body: { ...presented, pin: '0000', amount: 100, descriptor: 'Thief' } }), 422);
  ok(await t.call('POST', '/v1/simulate/authorize', { body: { amount: 100, descriptor: 'x', pan: card.pan, cvv: card.cvv, bogus: card.pan } }), 400);
  ok(await t.call('PATCH', `/v1/cards/${card.token}`, { body: { memo: 'Scanned', pin: PIN } }));
  ok(await t.call('GET', `/v1/cards/${card.token}`));
  ok(await t.call('GET', `/v1/cards?page_size=10`));
  ok(await t.call('GET', `/v1/cards/${card.token}/events`));
  ok(await t.call('PATCH', `/v1/cards/${card.token}`, { body: { state: 'CLOSED' } }));

  // Every webhook delivered (and, with Kafka, the card's last event consumed from its topic).
  await eventually('every webhook delivered', async () => {
    const { rows } = await t.pool.query<{ total: number; delivered: number }>(
      `select count(*)::int as total, count(*) filter (where status = 'delivered')::int as delivered from webhook_messages`,
    );
    return rows[0].total >= 10 && rows[0].delivered === rows[0].total && receiver.requests.length >= rows[0].total;
  });
  if (KAFKA_BROKERS) {
    await eventually('the card closed on Kafka', async () => kafkaValues.some((value) => value.includes(card.token) && value.includes('"CardClosed"')));
    expect(kafkaValues.filter((value) => value.includes(card.token)).length).toBeGreaterThanOrEqual(8);
  }

  // The whole database: every row of every table, as JSON.
  const tables = await t.pool.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
  );
  const dump: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await t.pool.query<{ row: string }>(`select row_to_json(t)::text as row from ${name} t`);
    dump.push(...rows.rows.map((row) => `${name} ${row.row}`));
  }
  expect(dump.some((row) => row.includes(card.token) && row.includes('pan_encrypted'))).toBe(true);
  expect(dump.filter((row) => row.startsWith('public.events ') || row.includes('.events ')).length).toBeGreaterThan(10);

  // The logs are there, one line per request with the id error bodies carry.
  const logs = logLines.join('').split('\n').filter(Boolean);
  const parsed = logs.map((line) => JSON.parse(line) as { request_id?: string; req?: { path?: string }; res?: { status?: number } });
  expect(parsed.find((line) => line.request_id === declined.debugging_request_id && line.res?.status === 422)).toBeDefined();
  expect(parsed.filter((line) => line.req?.path === '/v1/simulate/authorize').length).toBeGreaterThanOrEqual(5);

  const patterns = secretPatterns({ pans: [card.pan], cvvs: [card.cvv], pins: [PIN], apiKeys: [t.apiKey] });
  const found = [
    ...findSecrets('the database', dump, patterns),
    ...findSecrets('the logs', logs, patterns),
    ...findSecrets('the webhook bodies', receiver.requests.map((request) => request.raw), patterns),
    ...findSecrets('Kafka', kafkaValues, patterns),
  ];
  expect(found).toEqual([]);
  // The scan would see them: the card answer itself carries the PAN and CVV.
  expect(findSecrets('the card answer', [JSON.stringify(card)], patterns).length).toBeGreaterThanOrEqual(2);
}, 120_000);
