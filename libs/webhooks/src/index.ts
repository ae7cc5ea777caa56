export * from './webhooks.module';
export * from './delivery/webhook-dispatcher';
export * from './delivery/webhook-enqueuer';
export * from './delivery/webhook-payloads';
export * from './events/event-bodies';
export * from './delivery/kafka-feeder';
export * from './event-subscriptions/event-subscription.handlers';
export { NoExampleEvent } from './delivery/redelivery.handlers';
