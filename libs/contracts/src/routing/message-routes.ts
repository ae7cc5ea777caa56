import { DecideDisputeCommand } from '../commands/dispute-commands';
import { RequestAuthRuleBacktestCommand } from '../commands/auth-rule-backtest-commands';
import { EnterThreeDSOtpCommand, RespondToThreeDSChallengeCommand, SimulateThreeDSAuthenticationCommand } from '../commands/three-ds-commands';
import { CreateAuthRuleCommand, DeleteAuthRuleCommand, DraftAuthRuleCommand, PromoteAuthRuleCommand, UpdateAuthRuleCommand } from '../commands/auth-rule-commands';
import { CreateCardCommand, FulfillCardCommand, UpdateCardCommand } from '../commands/card-commands';
import { ChangeTokenizationStatusCommand, ResendActivationCodeCommand, SimulateTokenizationCommand, TokenizeCardCommand, UpdateDigitalCardArtCommand } from '../commands/tokenization-commands';
import {
  CreateEventSubscriptionCommand,
  DeleteEventSubscriptionCommand,
  MarkEventSubscriptionFailingCommand,
  MarkEventSubscriptionRecoveredCommand,
  RecoverEventSubscriptionCommand,
  ReplayMissingEventsCommand,
  ResendWebhookMessageCommand,
  RotateEventSubscriptionSecretCommand,
  SendExampleEventCommand,
  UpdateEventSubscriptionCommand,
} from '../commands/event-subscription-commands';
import {
  AddFundingSourceCommand,
  AdvanceProgramClockCommand,
  CreateProgramCommand,
  DisenrollAuthorizationStreamCommand,
  EnrollAuthorizationStreamCommand,
  IssueApiKeyCommand,
  RevokeApiKeyCommand,
  RotateAuthorizationStreamSecretCommand,
  UpdateFundingSourceCommand,
  UpdateProgramSettingsCommand,
} from '../commands/program-commands';
import {
  AuthorizeCardSpendCommand,
  SimulateAuthorizationCommand,
  SimulateReturnCommand,
  SimulateReturnReversalCommand,
  SimulateSettlementCommand,
  SimulateTransactionEventCommand,
  ExpireAuthorizationCommand,
} from '../commands/transaction-commands';

/**
 * Who handles which message, declared once. In the distributed set a process forwards a message to
 * the role named here and the role's replicas take it; in one process the table is not used.
 *
 * Each message travels under the name written here, never its class name: a rename or a minifier
 * changes a class name, and both sides of the wire would have to change in step. Renaming a class is
 * free; renaming a route is a change of the wire and needs every process of the set upgraded at once.
 *
 * Queries are not listed: every query handler is the gateway's own and reads the read models where the
 * gateway runs. A query a service answered would be listed here with kind 'query'.
 * (apps/server/test/message-routes.spec.ts checks this table against the handlers each role registers.)
 */

/** The roles whose handlers other processes reach over the command transport. */
export const HANDLING_ROLES = ['card-service', 'transaction-service', 'webhooks'] as const;
export type HandlingRole = (typeof HANDLING_ROLES)[number];

/** A command or query class: what a bus finds its handler by. */
export type MessageClass = abstract new (...args: never[]) => object;

export interface MessageRoute {
  /** The stable name the message travels under. */
  readonly name: string;
  readonly type: MessageClass;
  readonly kind: 'command' | 'query';
  readonly role: HandlingRole;
}

const commandsOf = (role: HandlingRole, commands: Readonly<Record<string, MessageClass>>): MessageRoute[] =>
  Object.entries(commands).map(([name, type]) => ({ name, type, kind: 'command', role }));

export const MESSAGE_ROUTES: readonly MessageRoute[] = checkedRoutes([
  ...commandsOf('card-service', {
    'card.create': CreateCardCommand,
    'card.update': UpdateCardCommand,
    'card.fulfill': FulfillCardCommand,
    'card.authorize-spend': AuthorizeCardSpendCommand,
    'program.create': CreateProgramCommand,
    'program.issue-api-key': IssueApiKeyCommand,
    'program.revoke-api-key': RevokeApiKeyCommand,
    'program.update-settings': UpdateProgramSettingsCommand,
    'program.advance-clock': AdvanceProgramClockCommand,
    'program.add-funding-source': AddFundingSourceCommand,
    'program.update-funding-source': UpdateFundingSourceCommand,
    'program.enroll-authorization-stream': EnrollAuthorizationStreamCommand,
    'program.rotate-authorization-stream-secret': RotateAuthorizationStreamSecretCommand,
    'program.disenroll-authorization-stream': DisenrollAuthorizationStreamCommand,
    'auth-rule.create': CreateAuthRuleCommand,
    'auth-rule.update': UpdateAuthRuleCommand,
    'auth-rule.draft': DraftAuthRuleCommand,
    'auth-rule.promote': PromoteAuthRuleCommand,
    'auth-rule.delete': DeleteAuthRuleCommand,
    'auth-rule.backtest': RequestAuthRuleBacktestCommand,
    'tokenization.tokenize-card': TokenizeCardCommand,
    'tokenization.change-status': ChangeTokenizationStatusCommand,
    'tokenization.resend-activation-code': ResendActivationCodeCommand,
    'tokenization.update-digital-card-art': UpdateDigitalCardArtCommand,
  }),
  ...commandsOf('transaction-service', {
    'transaction.simulate-authorization': SimulateAuthorizationCommand,
    'transaction.simulate-event': SimulateTransactionEventCommand,
    'transaction.expire-authorization': ExpireAuthorizationCommand,
    'transaction.simulate-return': SimulateReturnCommand,
    'transaction.simulate-return-reversal': SimulateReturnReversalCommand,
    'transaction.simulate-settlement': SimulateSettlementCommand,
    'three-ds.simulate-authentication': SimulateThreeDSAuthenticationCommand,
    'three-ds.enter-otp': EnterThreeDSOtpCommand,
    'three-ds.respond-to-challenge': RespondToThreeDSChallengeCommand,
    'tokenization.simulate': SimulateTokenizationCommand,
    'dispute.decide': DecideDisputeCommand,
  }),
  ...commandsOf('webhooks', {
    'event-subscription.create': CreateEventSubscriptionCommand,
    'event-subscription.update': UpdateEventSubscriptionCommand,
    'event-subscription.rotate-secret': RotateEventSubscriptionSecretCommand,
    'event-subscription.delete': DeleteEventSubscriptionCommand,
    'event-subscription.mark-failing': MarkEventSubscriptionFailingCommand,
    'event-subscription.mark-recovered': MarkEventSubscriptionRecoveredCommand,
    'event-subscription.recover': RecoverEventSubscriptionCommand,
    'event-subscription.replay-missing-events': ReplayMissingEventsCommand,
    'event-subscription.send-example-event': SendExampleEventCommand,
    'webhook-message.resend': ResendWebhookMessageCommand,
  }),
]);

/** A name or a class listed twice would send one message to two places: refused when the table loads. */
function checkedRoutes(routes: MessageRoute[]): MessageRoute[] {
  const names = new Set<string>();
  const types = new Set<MessageClass>();
  for (const route of routes) {
    if (names.has(route.name)) throw new Error(`Message route ${route.name} is declared twice`);
    if (types.has(route.type)) throw new Error(`A message class is routed twice (the second time as ${route.name})`);
    names.add(route.name);
    types.add(route.type);
  }
  return routes;
}
