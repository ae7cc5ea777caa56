import { Logger } from '@nestjs/common';
import type { Kafka, Message, Producer } from 'kafkajs';
import { TOPICS, type Topic } from '@ledger/contracts';
import { formatPosition, type EventStore, type GlobalPosition, type RecordedEvent, type Subscription } from '@ledger/event-store';
import { createIdempotentProducer, ensureTopics, type IdempotentProducerOptions, IntegrationEnvelopes, topicFor } from '@ledger/messaging';
import type { ReadModelClient, ReadModelTransaction } from '@ledger/read-model';
import { type LogProcessor, prismaTransactions, type ProcessorTransactions, SubscriptionProcessor } from '@ledger/runtime';

export const KAFKA_PUBLISHER = 'kafka-publisher';

/** Kafka headers on every integration message; the value carries the same facts in its envelope. */
export const MESSAGE_HEADERS = { id: 'message-id', type: 'event-type', envelopeVersion: 'envelope-version' } as const;

export interface IntegrationPublisherOptions {
  /** Events per read from the store, and so at most per produce request. Default 200. */
  readonly batchSize?: number;
  /** First wait before resubscribing after a failure; doubles on every failure in a row. Default 1000. */
  readonly initialRetryDelayMs?: number;
  /** Longest wait between two attempts. Default 30000. */
  readonly maxRetryDelayMs?: number;
  /** Partitions for topics this publisher has to create. Default 3. */
  readonly topicPartitions?: number;
  readonly producer?: IdempotentProducerOptions;
  readonly logger?: Pick<Logger, 'log' | 'warn' | 'error'>;
}

/**
 * Publishes the integration messages (design invariant 2): reads the whole log from its own
 * checkpoint in `projector_checkpoints`, maps each event with `topicFor`/`IntegrationEnvelopes`
 * (secrets removed, internal events skipped) and produces each batch with the idempotent producer.
 * The checkpoint moves only after the broker acknowledged the whole batch (acks from all in-sync
 * replicas), so delivery is at-least-once: a crash between the acknowledgement and the checkpoint
 * write sends the same messages again, with the same `message-id`, and consumers drop the repeats
 * (see runIdempotentConsumer).
 *
 * Order: a card's messages are keyed by its token, so they land on one partition in stream order.
 * Every transaction event's envelope carries its transaction's card (IntegrationEnvelopes) and is
 * keyed by it, so a transaction's messages also stay in order. Program events are keyed by program.
 *
 * Failures (broker down, database down) are logged; the publisher resubscribes from the unmoved
 * checkpoint with exponential backoff, with a new producer each time. Run one publisher per event
 * store: a second one only adds duplicates.
 *
 * Its batches go through a SubscriptionProcessor (the checkpoint, its lock, only what lies past it);
 * the sessions, not the processor's own loop, drive them, because a failure here means a new producer.
 */
export class IntegrationPublisher implements LogProcessor<ReadModelTransaction> {
  readonly batchSize: number;
  // Consumers see a message 20 ms later; Kafka gets fewer, larger produce requests.
  readonly gatherMs = 20;
  private readonly logger: Pick<Logger, 'log' | 'warn' | 'error'>;
  private readonly envelopes: IntegrationEnvelopes;
  private readonly processor: SubscriptionProcessor<ReadModelTransaction>;
  private readonly transactions: ProcessorTransactions<ReadModelTransaction>;
  private running: Promise<void> | null = null;
  private stopping = false;
  private stopRequested = signal();
  /** The producer of the session in hand. */
  private producer: Producer | null = null;

  constructor(
    private readonly store: EventStore,
    readModel: ReadModelClient,
    private readonly kafka: Kafka,
    readonly name = KAFKA_PUBLISHER,
    private readonly options: IntegrationPublisherOptions = {},
  ) {
    this.logger = options.logger ?? new Logger(IntegrationPublisher.name);
    this.envelopes = new IntegrationEnvelopes(store);
    this.batchSize = options.batchSize ?? 200;
    this.transactions = prismaTransactions(readModel);
    this.processor = new SubscriptionProcessor(store, this.transactions, this, { logger: this.logger });
  }

  /** Starts publishing in the background; never throws, since the broker may be down for a while. */
  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.stopRequested = signal();
    this.running = this.run();
  }

  /** Lets the batch in hand finish (or fail), then disconnects. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.stopRequested.resolve();
    await this.running;
    this.running = null;
  }

  /** The last position whose messages the broker acknowledged, or null before the first batch. */
  async checkpoint(): Promise<GlobalPosition | null> {
    return this.transactions.run(({ sql }) => this.processor.checkpoint(sql));
  }

  private async run(): Promise<void> {
    const initialDelay = this.options.initialRetryDelayMs ?? 1000;
    const maxDelay = this.options.maxRetryDelayMs ?? 30_000;
    let delay = initialDelay;
    while (!this.stopping) {
      const began = Date.now();
      const outcome = await this.session();
      if (this.stopping) break;
      // A session that published, or simply lived a while, was not part of a run of failures.
      if (outcome.published || Date.now() - began > maxDelay) delay = initialDelay;
      this.logger.error(`publishing to Kafka interrupted, resuming from the checkpoint in ${delay} ms: ${describeError(outcome.error)}`);
      await this.sleep(delay);
      delay = Math.min(delay * 2, maxDelay);
    }
  }

  /** One producer and one subscription, until the first failure or stop(). */
  private async session(): Promise<{ published: boolean; error: unknown }> {
    const outcome = { published: false, error: undefined as unknown };
    const producer = createIdempotentProducer(this.kafka, this.options.producer);
    let subscription: Subscription | null = null;
    try {
      if (!(await this.connectUnlessStopped(producer))) return outcome;
      if (!(await this.ensureTopics())) return outcome;
      const after = await this.checkpoint();
      if (this.stopping) return outcome;
      this.logger.log(`publishing integration messages from ${after ? formatPosition(after) : 'the start of the log'}`);
      let fail: (error: unknown) => void = () => undefined;
      const failed = new Promise<unknown>((resolve) => (fail = resolve));
      this.producer = producer;
      subscription = this.store.subscribeToAll({
        after,
        batchSize: this.batchSize,
        gatherMs: this.gatherMs,
        handle: async (events) => {
          await this.processor.process(events);
          outcome.published = true;
        },
        onError: (error) => fail(error),
      });
      outcome.error = await Promise.race([failed, this.stopRequested.promise]);
    } catch (error) {
      outcome.error = error;
    } finally {
      await subscription?.stop();
      this.producer = null;
      await producer.disconnect().catch(() => undefined);
    }
    return outcome;
  }

  /** False when stop() came first. */
  private async ensureTopics(): Promise<boolean> {
    const admin = this.kafka.admin();
    if (!(await this.connectUnlessStopped(admin))) return false;
    try {
      const created = await ensureTopics(admin, Object.values(TOPICS), this.options.topicPartitions ?? 3);
      if (created.length > 0) this.logger.log(`created Kafka topics ${created.join(', ')}`);
      return true;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /**
   * Connects, unless stop() comes first: against a broker that is down, kafkajs keeps retrying a
   * connect for about 10 s, and a shutdown must not wait for that. A connect that completes after
   * stop() is undone. False when stop() came first.
   */
  private async connectUnlessStopped(client: { connect(): Promise<void>; disconnect(): Promise<void> }): Promise<boolean> {
    const connecting = client.connect();
    const first = await Promise.race([connecting.then(() => 'connected' as const), this.stopRequested.promise.then(() => 'stopped' as const)]);
    if (first === 'connected') return true;
    connecting.then(
      () => client.disconnect().catch(() => undefined),
      () => undefined,
    );
    return false;
  }

  /**
   * Produces one batch; the processor moves the checkpoint past it once the broker acknowledged all
   * of it (also after a batch of internal events only, so they are not read again after a restart).
   */
  async apply(events: readonly RecordedEvent[]): Promise<void> {
    const producer = this.producer;
    if (!producer) throw new Error('no producer: batches are published within a session');
    const perTopic = new Map<Topic, Message[]>();
    for (const recorded of events) {
      const topic = topicFor(recorded);
      if (topic === null) continue;
      const message = await this.envelopes.envelopeOf(recorded);
      const messages = perTopic.get(topic) ?? [];
      messages.push({
        key: message.card_token ?? message.program_token,
        value: JSON.stringify(message),
        headers: {
          [MESSAGE_HEADERS.id]: message.id,
          [MESSAGE_HEADERS.type]: message.type,
          [MESSAGE_HEADERS.envelopeVersion]: String(message.envelope_version),
        },
      });
      perTopic.set(topic, messages);
    }
    if (perTopic.size > 0) {
      await producer.sendBatch({ acks: -1, topicMessages: [...perTopic].map(([topic, messages]) => ({ topic, messages })) });
    }
  }

  private async sleep(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), this.stopRequested.promise]);
    clearTimeout(timer);
  }
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.name}: ${error.message} (${cause.message})` : `${error.name}: ${error.message}`;
  }
  return String(error);
}
