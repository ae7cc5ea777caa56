import { logLevel } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { createIdempotentProducer, createKafka, ensureTopics, quietLogCreator, type KafkaLogEntry } from './kafka-connection';

const BROKERS = process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim()).filter(Boolean) ?? [];
const SKIPPED =
  'Kafka connection against the broker (skipped: KAFKA_BROKERS is not set; start infra/kafka/start.sh and export KAFKA_BROKERS=127.0.0.1:9092)';
const describeKafka = BROKERS.length > 0 ? describe : describe.skip;

describe('quietLogCreator', () => {
  it('hands WARN and ERROR to the sink, without the timestamp, and drops the rest and the known noise', () => {
    const entries: KafkaLogEntry[] = [];
    const log = quietLogCreator((entry) => entries.push(entry))(logLevel.DEBUG);
    const line = (level: logLevel, message: string, extra: Record<string, unknown> = {}) =>
      log({ namespace: 'Producer', level, label: logLevel[level], log: { timestamp: '2026-01-01T00:00:00.000Z', message, ...extra } });

    line(logLevel.DEBUG, 'debug');
    line(logLevel.INFO, 'info');
    line(logLevel.WARN, 'KafkaJS v2.0.0 switched default partitioner. To retain the same partitioning behavior ...');
    line(logLevel.WARN, 'Limiting retries for the idempotent producer may invalidate EoS guarantees');
    line(logLevel.WARN, 'a warning', { broker: '127.0.0.1:9092' });
    line(logLevel.ERROR, 'Connection error', { error: 'connect ECONNREFUSED 127.0.0.1:1', retryCount: 2 });

    expect(entries).toEqual([
      { level: 'warn', namespace: 'Producer', message: 'a warning', extra: { broker: '127.0.0.1:9092' } },
      { level: 'error', namespace: 'Producer', message: 'Connection error', extra: { error: 'connect ECONNREFUSED 127.0.0.1:1', retryCount: 2 } },
    ]);
  });

  it('refuses a client without brokers', () => {
    expect(() => createKafka({ clientId: 'test', brokers: [] })).toThrow('at least one broker');
  });
});

describeKafka(BROKERS.length > 0 ? 'Kafka connection against the broker' : SKIPPED, () => {
  it('ensureTopics creates what is missing once, with the partitions asked for; the producer prints nothing', async () => {
    const entries: KafkaLogEntry[] = [];
    const kafka = createKafka({ clientId: 'ledger-connection-test', brokers: BROKERS, log: (entry) => entries.push(entry) });
    const admin = kafka.admin();
    await admin.connect();
    const topic = `ledger-test-ensure-${randomUUID()}`;
    try {
      expect(await ensureTopics(admin, [topic, topic], 2)).toEqual([topic]);
      expect(await ensureTopics(admin, [topic], 2)).toEqual([]);
      const metadata = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(metadata.topics[0].partitions).toHaveLength(2);

      const producer = createIdempotentProducer(kafka);
      await producer.connect();
      try {
        expect(producer.isIdempotent()).toBe(true);
        const [sent] = await producer.sendBatch({ acks: -1, topicMessages: [{ topic, messages: [{ key: 'k', value: 'v' }] }] });
        expect(sent.errorCode).toBe(0);
      } finally {
        await producer.disconnect();
      }
      expect(entries).toEqual([]);
    } finally {
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  });
});
