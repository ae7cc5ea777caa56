import { Logger } from '@nestjs/common';
import type { Kafka, Producer } from 'kafkajs';
import type { SignedDigest } from '@ledger/ledger-proof';
import { createIdempotentProducer, ensureTopics } from '@ledger/messaging';
import { type DigestKeys, type LedgerTreeTables, signKeptTree } from '@ledger/runtime';

/** One message per digest, key `ledger`, value the signed digest as GET /v1/audit/digest returns it. */
export const DIGEST_TOPIC = 'card-ledger.audit-digests.v1';
export const DIGEST_HEADERS = { keyId: 'key-id', treeSize: 'tree-size' } as const;

export interface DigestPublisherOptions {
  /** Time between two digests; a tick when the log has not moved publishes nothing. */
  readonly intervalMs: number;
  readonly logger?: Pick<Logger, 'log' | 'warn' | 'error'>;
}

/**
 * Takes a signed digest of the kept tree (LedgerTreeFollower's, as far as it has followed the log) on a schedule and puts it on Kafka, where it lives outside
 * the database: whoever later rewrites the table cannot rewrite the topic's history (nor, with the
 * key kept apart, sign a new root). A tick that fails (broker or database down) is logged and the
 * next tick tries again; a digest is a statement about the log at that moment, so a missed one is
 * simply superseded by the next.
 */
export class DigestPublisher {
  private readonly logger: Pick<Logger, 'log' | 'warn' | 'error'>;
  private producer: Producer | null = null;
  /** Tree size of the last digest published; null before the first. */
  private lastSize: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly tables: LedgerTreeTables,
    private readonly keys: DigestKeys,
    private readonly kafka: Kafka,
    private readonly options: DigestPublisherOptions,
  ) {
    this.logger = options.logger ?? new Logger(DigestPublisher.name);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.inFlight = this.inFlight.then(() => this.publishOnce().catch((error) => this.logger.error(`audit digest not published: ${(error as Error).message}`)));
    }, this.options.intervalMs);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight;
    await this.producer?.disconnect().catch(() => undefined);
    this.producer = null;
  }

  /** Publishes a digest of the kept tree now, unless it has not grown since the last one; returns it, or null. */
  async publishOnce(): Promise<SignedDigest | null> {
    const head = await this.tables.head();
    if (this.lastSize === head.size) return null;
    const digest = await signKeptTree(this.tables, this.keys.signer, head);
    const producer = await this.connected();
    await producer.send({
      topic: DIGEST_TOPIC,
      acks: -1,
      messages: [{ key: 'ledger', value: JSON.stringify(digest), headers: { [DIGEST_HEADERS.keyId]: digest.key_id, [DIGEST_HEADERS.treeSize]: String(digest.tree_size) } }],
    });
    this.lastSize = head.size;
    return digest;
  }

  private async connected(): Promise<Producer> {
    if (this.producer) return this.producer;
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      // One partition: digests are read in the order they were taken.
      await ensureTopics(admin, [DIGEST_TOPIC], 1);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    const producer = createIdempotentProducer(this.kafka);
    await producer.connect();
    this.producer = producer;
    return producer;
  }
}
