import { reportedBacktest, type WebhookEventType } from '@ledger/domain';
import type { LedgerEvent } from '../events/event-catalog';
import { backtestReportCreatedBody, type BacktestReportCreatedBody } from '../rest/auth-rule-backtest-responses';
import { threeDSAuthenticationWebhookBody, type ThreeDSAuthenticationWebhookBody } from '../rest/three-ds-responses';
import { tokenizationResultBody, type TokenizationResultBody } from '../rest/tokenization-responses';

/**
 * The webhooks whose event carries all their body shows (a backtest's report, a 3DS authentication,
 * a tokenization's decision): rendered from that event alone, with no read model, in both feeds.
 */
export const EVENT_ALONE_WEBHOOKS: readonly WebhookEventType[] = ['auth_rules.backtest_report.created', 'three_ds_authentication.created', 'three_ds_authentication.updated', 'tokenization.result'];

export type EventAloneBody = BacktestReportCreatedBody | ThreeDSAuthenticationWebhookBody | TokenizationResultBody;

/** The body of an EVENT_ALONE_WEBHOOKS webhook from its decoded event; null when the event is not one that webhook renders. */
export function eventAloneBody(eventType: WebhookEventType, event: LedgerEvent): EventAloneBody | null {
  if (eventType === 'auth_rules.backtest_report.created') return event.type === 'AuthRuleBacktestReported' ? backtestReportCreatedBody(reportedBacktest(event)) : null;
  if (eventType === 'tokenization.result') return event.type === 'TokenizationDecided' ? tokenizationResultBody(event) : null;
  if (eventType === 'three_ds_authentication.created' || eventType === 'three_ds_authentication.updated') {
    return event.type === 'ThreeDSAuthenticationCreated' || event.type === 'ThreeDSChallengeCompleted' ? threeDSAuthenticationWebhookBody(event) : null;
  }
  return null;
}
