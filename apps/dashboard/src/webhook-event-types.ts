/**
 * The webhook event types a subscription can name, as the API takes them. The dashboard is built
 * without the service's libraries, so it keeps its own copy; a Node spec pins it to the domain's list.
 */
export const WEBHOOK_EVENT_TYPES = [
  'card.created',
  'card.updated',
  'card_transaction.updated',
  'card.shipped',
  'card.renewed',
  'card.reissued',
  'card.converted',
  'auth_rules.backtest_report.created',
  'three_ds_authentication.created',
  'three_ds_authentication.updated',
  'tokenization.result',
  'tokenization.updated',
  'dispute.updated',
];
