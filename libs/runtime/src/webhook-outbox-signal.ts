/**
 * Tells the webhook dispatcher of this process that the projector committed new outbox messages, so
 * it looks now rather than at its next poll. In-process only: a dispatcher in another process than
 * the projector finds them by polling (WEBHOOK_POLL_MS), and the distributed set feeds webhooks from
 * Kafka in the webhooks app itself.
 */
export class WebhookOutboxSignal {
  private readonly listeners = new Set<() => void>();

  /** Calls wake at every commit that enqueued messages; returns the function that stops it. */
  subscribe(wake: () => void): () => void {
    this.listeners.add(wake);
    return () => this.listeners.delete(wake);
  }

  enqueued(): void {
    for (const wake of this.listeners) wake();
  }
}
