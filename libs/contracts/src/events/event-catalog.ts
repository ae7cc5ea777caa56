import type { AccountVelocityUsageEvent, ThreeDSAuthenticationEvent, AuthRuleBacktestEvent, AuthRuleEvent, ProgramAuthRulesEvent, CardEvent, CardNumberAssigned, EventSubscriptionEvent, ProgramEvent, TransactionEvent, ProgramTokenizationsEvent, TokenizationEvent, DisputeEvent, DisputeListed } from '@ledger/domain';

/**
 * Every event type the ledger records, with the schema version it is written at today. Auditors read
 * these names and versions in the store; a change to an event's data shape bumps its version and adds
 * an upcaster below, so old events still replay.
 */
export type LedgerEvent = CardEvent | CardNumberAssigned | ProgramEvent | TransactionEvent | EventSubscriptionEvent | AuthRuleEvent | ProgramAuthRulesEvent | AuthRuleBacktestEvent | AccountVelocityUsageEvent | ThreeDSAuthenticationEvent | TokenizationEvent | ProgramTokenizationsEvent | DisputeEvent | DisputeListed;
export type LedgerEventType = LedgerEvent['type'];

export const EVENT_SCHEMA_VERSIONS: Readonly<Record<LedgerEventType, number>> = {
  CardCreated: 1,
  CardDetailsChanged: 1,
  CardPaused: 1,
  CardResumed: 1,
  CardClosed: 1,
  CardAuthorizationApproved: 1,
  CardAuthorizationDeclined: 1,
  CardMerchantLocked: 1,
  CardSpendAdjusted: 1,
  CardReturnCredited: 1,
  CardShipped: 1,
  CardActivated: 1,
  CardRenewed: 1,
  CardReissued: 1,
  CardConvertedToPhysical: 1,
  CardNumberAssigned: 1,
  ProgramCreated: 1,
  ApiKeyIssued: 1,
  ApiKeyRevoked: 1,
  FundingSourceAdded: 1,
  FundingSourceChanged: 1,
  ProgramSettingsChanged: 1,
  AuthorizationStreamEnrolled: 1,
  AuthorizationStreamSecretRotated: 1,
  AuthorizationStreamDisenrolled: 1,
  ProgramClockAdvanced: 1,
  TransactionAuthorized: 1,
  TransactionAdvised: 1,
  TransactionVoided: 1,
  TransactionExpired: 1,
  TransactionCleared: 1,
  TransactionReturned: 1,
  TransactionReturnReversed: 1,
  TransactionDisputeWon: 1,
  TransactionSettled: 1,
  TransactionBounced: 1,
  AuthorizationWithdrawn: 1,
  EventTokenWithdrawn: 1,
  EventSubscriptionCreated: 1,
  EventSubscriptionUpdated: 1,
  EventSubscriptionSecretRotated: 1,
  EventSubscriptionDeleted: 1,
  EventSubscriptionMarkedFailing: 1,
  EventSubscriptionRecovered: 1,
  AuthRuleCreated: 1,
  AuthRuleDrafted: 1,
  AuthRuleDraftDiscarded: 1,
  AuthRulePromoted: 1,
  AuthRuleRenamed: 1,
  AuthRuleScopeChanged: 1,
  AuthRuleDeactivated: 1,
  AuthRuleDeleted: 1,
  AuthRuleListed: 1,
  AuthRuleUnlisted: 1,
  AuthRuleBacktestRequested: 1,
  AuthRuleBacktestReported: 1,
  AuthRuleUsageCounted: 1,
  ThreeDSAuthenticationCreated: 1,
  ThreeDSChallengeCompleted: 1,
  TokenizationDecided: 1,
  TokenizationStatusChanged: 1,
  TokenizationActivationCodeResent: 1,
  TokenizationDigitalCardArtUpdated: 1,
  TokenizationListed: 1,
  DisputeFiled: 1,
  DisputeAmended: 1,
  DisputeStatusChanged: 1,
  DisputeEvidenceRequested: 1,
  DisputeEvidenceUploaded: 1,
  DisputeEvidenceDeleted: 1,
  DisputeListed: 1,
};

export function isLedgerEventType(type: string): type is LedgerEventType {
  return Object.prototype.hasOwnProperty.call(EVENT_SCHEMA_VERSIONS, type);
}

/**
 * An event as the log stores it, as far as the catalog writes and reads it. The event store's own
 * NewEvent and RecordedEvent have these fields; the contracts name them here instead of importing
 * the store, so that they depend on the domain alone.
 */
export interface CatalogedEvent<Metadata> {
  readonly type: string;
  readonly schemaVersion: number;
  readonly data: unknown;
  readonly metadata: Metadata;
}

/** Where a stored event sits, for error messages. */
export interface StoredEventPlace {
  readonly streamId: string;
  readonly streamVersion: number;
}

export function encodeEvent<Metadata>(event: LedgerEvent, metadata: Metadata): CatalogedEvent<Metadata> {
  return { type: event.type, schemaVersion: EVENT_SCHEMA_VERSIONS[event.type], data: event.data, metadata };
}

/** Turns a recorded event back into the domain event, upcasting older schema versions. */
export function decodeEvent(recorded: Omit<CatalogedEvent<unknown>, 'metadata'> & StoredEventPlace): LedgerEvent {
  if (!isLedgerEventType(recorded.type)) throw new Error(`Unknown event type ${recorded.type} at ${recorded.streamId}@${recorded.streamVersion}`);
  const current = EVENT_SCHEMA_VERSIONS[recorded.type];
  if (recorded.schemaVersion !== current) {
    throw new Error(`No upcaster for ${recorded.type} v${recorded.schemaVersion} (current v${current})`);
  }
  return { type: recorded.type, data: recorded.data } as LedgerEvent;
}

/** The codec the command pipeline uses for any slice of the ledger's events. */
export function ledgerCodec<Event extends LedgerEvent>(): {
  encode<Metadata>(event: Event, metadata: Metadata): CatalogedEvent<Metadata>;
  decode(recorded: Omit<CatalogedEvent<unknown>, 'metadata'> & StoredEventPlace): Event;
} {
  return { encode: encodeEvent, decode: (recorded) => decodeEvent(recorded) as Event };
}
