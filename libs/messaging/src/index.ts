export * from './standard-webhooks';
export * from './kafka/kafka-connection';
export * from './privacy-hmac';
export * from './server-sent-events';
export * from './integration/integration-messages';
export * from './integration/integration-envelopes';
