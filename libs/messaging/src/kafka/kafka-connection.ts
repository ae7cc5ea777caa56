import { Kafka, logLevel, Partitioners, type Admin, type logCreator, type Producer, type RetryOptions } from 'kafkajs';

/**
 * The one place that knows how we talk to kafkajs: a client with a quiet logger, the idempotent
 * producer every publisher uses, and idempotent topic creation. Free of NestJS on purpose, so the
 * webhook dispatcher, scripts and tests can use it as they are.
 */

export type KafkaLogLevel = 'error' | 'warn';

export interface KafkaLogEntry {
  readonly level: KafkaLogLevel;
  /** kafkajs's component: Producer, Consumer, Cluster, Connection, ... */
  readonly namespace: string;
  readonly message: string;
  /** What kafkajs attached to the line (broker, groupId, error, retryCount, ...), minus timestamp. */
  readonly extra: Readonly<Record<string, unknown>>;
}

export type KafkaLogSink = (entry: KafkaLogEntry) => void;

export interface KafkaConnectionOptions {
  readonly clientId: string;
  readonly brokers: readonly string[];
  /** Where WARN and ERROR lines go; INFO and DEBUG are dropped. Default: console.warn / console.error. */
  readonly log?: KafkaLogSink;
  /** TCP connect timeout per broker; kafkajs's default is 1000 ms. */
  readonly connectionTimeoutMs?: number;
  /** Per request; kafkajs's default is 30000 ms. */
  readonly requestTimeoutMs?: number;
  /** Retries of the client's own operations (connect, metadata, admin). */
  readonly retry?: RetryOptions;
}

/** Lines kafkajs prints that say nothing an operator must act on (see each entry). */
const BENIGN_WARNINGS: readonly RegExp[] = [
  // Printed once per process when a producer is created without createPartitioner; ours always pass
  // one (see createIdempotentProducer), but a caller creating its own producer must not spam logs.
  // The same warning is also silenced by KAFKAJS_NO_PARTITIONER_WARNING=1.
  /KafkaJS v2\.0\.0 switched default partitioner/,
  // Printed for an idempotent producer with bounded retries. We bound them on purpose so a send to a
  // broker that is down fails (and is retried from the unmoved checkpoint) instead of hanging
  // forever; duplicates that may follow are de-duplicated by message id downstream.
  /Limiting retries for the idempotent producer may invalidate EoS guarantees/,
];

const defaultSink: KafkaLogSink = ({ level, namespace, message, extra }) => {
  const line = `[kafkajs ${namespace}] ${message}${Object.keys(extra).length > 0 ? ` ${safeJson(extra)}` : ''}`;
  if (level === 'error') console.error(line);
  else console.warn(line);
};

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** A kafkajs logCreator that hands WARN and ERROR lines to the sink and drops the rest. */
export function quietLogCreator(sink: KafkaLogSink = defaultSink): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      if (level !== logLevel.ERROR && level !== logLevel.WARN) return;
      const { message, timestamp: _timestamp, ...extra } = log;
      if (level === logLevel.WARN && BENIGN_WARNINGS.some((pattern) => pattern.test(message))) return;
      sink({ level: level === logLevel.ERROR ? 'error' : 'warn', namespace, message, extra });
    };
}

export function createKafka(options: KafkaConnectionOptions): Kafka {
  if (options.brokers.length === 0) throw new Error('createKafka needs at least one broker');
  return new Kafka({
    clientId: options.clientId,
    brokers: [...options.brokers],
    connectionTimeout: options.connectionTimeoutMs,
    requestTimeout: options.requestTimeoutMs,
    retry: options.retry,
    logLevel: logLevel.WARN,
    logCreator: quietLogCreator(options.log),
  });
}

export interface IdempotentProducerOptions {
  /**
   * Retries of one send. kafkajs's default for an idempotent producer is unbounded, which makes a
   * send to a broker that is down hang forever (and a shutdown with it). Default: 5 retries from
   * 300 ms, doubling, at most 5 s apart: about 10 s before the send fails.
   */
  readonly retry?: RetryOptions;
}

export const DEFAULT_PRODUCER_RETRY: RetryOptions = { retries: 5, initialRetryTime: 300, maxRetryTime: 5000 };

/**
 * The producer every publisher uses: idempotent (the broker drops the duplicates of kafkajs's own
 * retries, per producer id and partition sequence), one request in flight (so a retry can never
 * overtake the next batch and reorder a partition), acks from all in-sync replicas (kafkajs refuses
 * anything else for an idempotent producer). The Java-compatible murmur2 partitioner is passed
 * explicitly, which also keeps kafkajs's "switched default partitioner" warning away.
 */
export function createIdempotentProducer(kafka: Kafka, options: IdempotentProducerOptions = {}): Producer {
  return kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    retry: options.retry ?? DEFAULT_PRODUCER_RETRY,
  });
}

/**
 * Creates the topics that do not exist yet, with `partitions` partitions and the broker's default
 * replication factor, and waits for their leaders. Safe to call from several processes at once: a
 * topic another process created meanwhile counts as present. Returns the topics this call created.
 */
export async function ensureTopics(admin: Admin, topics: readonly string[], partitions = 3): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = [...new Set(topics)].filter((topic) => !existing.has(topic));
  if (missing.length === 0) return [];
  const created = await admin.createTopics({
    waitForLeaders: true,
    topics: missing.map((topic) => ({ topic, numPartitions: partitions })),
  });
  // false: every one of them already existed by the time the controller got the request.
  return created ? missing : [];
}
