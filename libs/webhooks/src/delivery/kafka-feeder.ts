import { Logger } from '@nestjs/common';
import { Consumer, EachBatchPayload, Kafka, logLevel, LogEntry } from 'kafkajs';
import { ENVELOPE_VERSION, IntegrationMessage, TOPICS, webhookEventTypeOf } from '@ledger/contracts';
import { comparePositions, EventStore, parsePosition } from '@ledger/event-store';
import type { ReadModelClient } from '@ledger/read-model';
import { RetryDelays, type RetryDelayPolicy } from '@ledger/retry';
import type { ProjectionWatcher } from '@ledger/runtime';
import { waitForReadModels } from './read-model-wait';
import type { WebhookEnqueuer } from './webhook-enqueuer';

export const WEBHOOK_KAFKA_CLIENT_ID = 'card-ledger-webhooks';
/** The topics whose events become webhooks (the programs topic for backtest reports). */
export const WEBHOOK_TOPICS = [TOPICS.cards, TOPICS.transactions, TOPICS.programs] as const;
/** Waits before rejoining after the consumer crashes for good, for the life of the feeder (a session that joined does not start them over). */
const REJOIN: RetryDelayPolicy = { firstMs: 1000, longestMs: 30_000 };

/**
 * The webhook outbox's feed when Kafka is configured: a consumer group on the card and transaction
 * topics. A batch's rows are inserted (duplicates skipped) before eachBatch returns, and kafkajs
 * resolves and commits the batch's offsets only after that, so a crash redelivers and never loses;
 * the unique key makes the redelivery a no-op. A new group starts from the beginning of the topics: events older
 * than a subscription never match it, so that costs time, not duplicates.
 *
 * An envelope is trusted only when the event store holds that very event (same stream, version and
 * id): a topic shared with another ledger, or a forged message, adds nothing.
 */
export class WebhookKafkaFeeder {
  private readonly logger = new Logger(WebhookKafkaFeeder.name);
  private readonly kafka: Kafka;
  private consumer: Consumer | null = null;
  private running: Promise<void> | null = null;
  private stopping = false;
  private wakeStop: () => void = () => undefined;
  private joined: Promise<void> = Promise.resolve();
  private markJoined: () => void = () => undefined;

  constructor(
    brokers: readonly string[],
    private readonly groupId: string,
    private readonly store: EventStore,
    private readonly readModel: ReadModelClient,
    private readonly watcher: ProjectionWatcher,
    private readonly enqueuer: WebhookEnqueuer,
    private readonly onEnqueued: () => void = () => undefined,
  ) {
    const kafkaLogger = new Logger('Kafka');
    this.kafka = new Kafka({
      clientId: WEBHOOK_KAFKA_CLIENT_ID,
      brokers: [...brokers],
      logLevel: logLevel.WARN,
      logCreator:
        () =>
        ({ level, namespace, log }: LogEntry) => {
          const line = `${namespace}: ${log.message}${typeof log.error === 'string' ? `: ${log.error}` : ''}`;
          if (level <= logLevel.ERROR) kafkaLogger.error(line);
          else kafkaLogger.warn(line);
        },
    });
    this.resetJoined();
  }

  /** Resolves once the consumer has joined its group (for tests and start-up logs). */
  get ready(): Promise<void> {
    return this.joined;
  }

  /** Starts consuming in the background; a broker that is down delays webhooks, never the start. */
  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeStop();
    await this.consumer?.disconnect().catch(() => undefined);
    await this.running;
    this.running = null;
  }

  private resetJoined(): void {
    this.joined = new Promise((resolve) => (this.markJoined = resolve));
  }

  private async run(): Promise<void> {
    const delays = new RetryDelays(REJOIN);
    while (!this.stopping) {
      const error = await this.session();
      if (this.stopping) break;
      const delay = delays.next();
      this.logger.error(`webhook Kafka feed interrupted, rejoining in ${delay} ms: ${String(error)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wakeStop = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** One consumer, from connect until it crashes for good or stop() is called. */
  private async session(): Promise<unknown> {
    const consumer = this.kafka.consumer({ groupId: this.groupId, allowAutoTopicCreation: true });
    this.consumer = consumer;
    try {
      const crashed = new Promise<unknown>((resolve) => {
        consumer.on(consumer.events.CRASH, (event) => {
          if (!event.payload.restart) resolve(event.payload.error);
        });
        consumer.on(consumer.events.GROUP_JOIN, () => this.markJoined());
        this.wakeStop = () => resolve(undefined);
      });
      await this.ensureTopics();
      await consumer.connect();
      await consumer.subscribe({ topics: [...WEBHOOK_TOPICS], fromBeginning: true });
      if (this.stopping) return undefined;
      await consumer.run({ eachBatch: (payload) => this.consume(payload) });
      this.logger.log(`consuming ${WEBHOOK_TOPICS.join(', ')} as group ${this.groupId}`);
      return await crashed;
    } catch (error) {
      return error;
    } finally {
      this.consumer = null;
      await consumer.disconnect().catch(() => undefined);
    }
  }

  /** Topics the publisher has not created yet are created here, so subscribing never fails on them. */
  private async ensureTopics(): Promise<void> {
    const admin = this.kafka.admin();
    try {
      await admin.connect();
      const existing = new Set(await admin.listTopics());
      const missing = WEBHOOK_TOPICS.filter((topic) => !existing.has(topic));
      if (missing.length > 0) await admin.createTopics({ topics: missing.map((topic) => ({ topic, numPartitions: 3 })), waitForLeaders: true });
    } catch (error) {
      this.logger.warn(`could not make sure the webhook topics exist: ${String(error)}`);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  private async consume({ batch, heartbeat }: EachBatchPayload): Promise<void> {
    const envelopes: IntegrationMessage[] = [];
    for (const message of batch.messages) {
      const envelope = parseEnvelope(message.value);
      if (envelope) envelopes.push(envelope);
      else this.logger.warn(`skipping a message that is no integration envelope (${batch.topic}/${batch.partition}@${message.offset})`);
    }
    await this.feed(envelopes);
    await heartbeat();
  }

  /**
   * Feeds one batch of envelopes; public so tests can drive it directly. Only envelopes of programs
   * with an enabled subscription are looked at closely: those are checked against the event store,
   * the read models are awaited up to the last of them, and their rows are inserted in one transaction.
   */
  async feed(envelopes: readonly IntegrationMessage[]): Promise<void> {
    const wanted = envelopes.filter((envelope) => webhookEventTypeOf(envelope) !== null);
    if (wanted.length === 0) return;
    const subscribed = await this.enqueuer.programsWithSubscriptions(this.readModel, [...new Set(wanted.map((envelope) => envelope.program_token))]);
    const ours: IntegrationMessage[] = [];
    for (const envelope of wanted) {
      if (!subscribed.has(envelope.program_token)) continue;
      if (await this.isOurs(envelope)) ours.push(envelope);
      else this.logger.warn(`skipping event ${envelope.id} (${envelope.stream_id}@${envelope.stream_version}): this ledger's event store does not hold it`);
    }
    if (ours.length === 0) return;
    const last = ours.map((envelope) => parsePosition(envelope.position)).reduce((a, b) => (comparePositions(a, b) >= 0 ? a : b));
    await waitForReadModels(this.watcher, last, () => this.stopping);
    const inserted = await this.readModel.$transaction((tx) => this.enqueuer.enqueue(tx, ours), { maxWait: 10_000, timeout: 60_000 });
    if (inserted > 0) this.onEnqueued();
  }

  private async isOurs(envelope: IntegrationMessage): Promise<boolean> {
    const [recorded] = await this.store.readStream(envelope.stream_id, { fromVersion: envelope.stream_version, maxCount: 1 });
    return recorded !== undefined && recorded.metadata.eventId === envelope.id && recorded.type === envelope.type;
  }
}

function parseEnvelope(value: Buffer | null): IntegrationMessage | null {
  try {
    const parsed: unknown = value ? JSON.parse(value.toString('utf8')) : null;
    return isEnvelope(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function isEnvelope(value: unknown): value is IntegrationMessage {
  const candidate = value as Partial<IntegrationMessage> | null;
  return (
    candidate !== null &&
    typeof candidate === 'object' &&
    candidate.envelope_version === ENVELOPE_VERSION &&
    typeof candidate.id === 'string' &&
    typeof candidate.type === 'string' &&
    typeof candidate.stream_id === 'string' &&
    typeof candidate.stream_version === 'number' &&
    typeof candidate.program_token === 'string' &&
    typeof candidate.occurred_at === 'string' &&
    typeof candidate.position === 'string'
  );
}

