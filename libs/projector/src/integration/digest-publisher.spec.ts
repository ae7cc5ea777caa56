import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { chainEvents, NO_STREAM, PostgresEventStore } from '@ledger/event-store';
import { generateSigningKeyPem, type SignedDigest, verifyDigest } from '@ledger/ledger-proof';
import { createKafka } from '@ledger/messaging';
import { migrateReadModel } from '@ledger/read-model';
import { DigestKeys, LedgerTreeTables, loadConfig } from '@ledger/runtime';
import { describeNeeding, eventually, truncateAll, workerDatabaseUrl } from '@ledger/test-support';
import { LedgerTreeFollower } from '../ledger-tree-follower';
import { DIGEST_HEADERS, DIGEST_TOPIC, DigestPublisher } from './digest-publisher';

// Against the real broker of infra/kafka and this worker's PostgreSQL. The topic is shared with every
// other run: each test's digests are told apart by their signing key, which is its own.
const BROKERS = process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim()).filter(Boolean) ?? [];
const describeKafka = describeNeeding(BROKERS.length > 0 ? null : 'KAFKA_BROKERS is not set; start infra/kafka/start.sh and export KAFKA_BROKERS=127.0.0.1:9092');

describeKafka('DigestPublisher', () => {
  let pool: Pool;
  let store: PostgresEventStore;
  // Made lazily: a skipped suite's body still runs, and there is no broker to name then.
  const kafka = () => createKafka({ clientId: 'digest-publisher-spec', brokers: BROKERS, log: () => undefined });

  beforeAll(async () => {
    pool = new Pool({ connectionString: await workerDatabaseUrl(), max: 4, idleTimeoutMillis: 0 });
    store = new PostgresEventStore(pool, { pollIntervalMs: 200 });
    await store.migrate();
    await migrateReadModel(pool);
    await truncateAll(pool);
  });
  afterAll(async () => {
    await truncateAll(pool);
    await store.close();
    await pool.end();
  });

  const appendCard = async () => {
    const streamId = `card-${randomUUID()}`;
    const metadata = { eventId: randomUUID(), correlationId: randomUUID(), causationId: null, programToken: randomUUID(), occurredAt: new Date().toISOString() };
    await store.append(streamId, chainEvents(streamId, null, [{ type: 'CardCreated', schemaVersion: 1, data: { cardToken: streamId.slice(5) }, metadata }]), NO_STREAM);
  };

  /** Every digest on the topic signed by `keyId`, in order. */
  async function digestsOnTopic(keyId: string, until: (digests: SignedDigest[]) => boolean): Promise<SignedDigest[]> {
    const consumer = kafka().consumer({ groupId: `digest-spec-${randomUUID()}`, maxWaitTimeInMs: 100 });
    const digests: SignedDigest[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topics: [DIGEST_TOPIC], fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          if (message.headers?.[DIGEST_HEADERS.keyId]?.toString() !== keyId) return;
          digests.push(JSON.parse(message.value!.toString()));
        },
      });
      await eventually('the digests on the topic', async () => (until(digests) ? digests : undefined), 20_000);
      return digests;
    } finally {
      await consumer.disconnect();
    }
  }

  it('puts a signed digest of the kept tree on the topic on each tick the tree grew, and none when it did not', async () => {
    const keys = DigestKeys.fromConfig(loadConfig({ LEDGER_SIGNING_KEY: generateSigningKeyPem() }));
    const tables = new LedgerTreeTables(pool);
    const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
    const follower = new LedgerTreeFollower(store, pool, tables, { logger: quiet });
    const publisher = new DigestPublisher(tables, keys, kafka(), { intervalMs: 100, logger: quiet });
    const followed = (size: number) => eventually(`the tree at ${size} events`, async () => ((await tables.head()).size === size ? true : undefined), 10_000);
    follower.start();
    try {
      await appendCard();
      await followed(1);
      const first = await publisher.publishOnce();
      expect(first).toMatchObject({ tree_size: 1, key_id: keys.signer.keyId });
      expect(await publisher.publishOnce()).toBeNull();
      await appendCard();
      await appendCard();
      await followed(3);
      publisher.start();
      const digests = await digestsOnTopic(keys.signer.keyId, (seen) => seen.some((digest) => digest.tree_size === 3));
      expect(digests.map((digest) => digest.tree_size)).toEqual([1, 3]);
      for (const digest of digests) expect(verifyDigest(digest, keys.trusted)).toEqual({ valid: true });
      expect(digests[0]).toEqual(first);
    } finally {
      await publisher.stop();
      await follower.stop();
    }
  });
});
