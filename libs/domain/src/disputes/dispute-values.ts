/** Lithic's dispute enumerations (`lithic/resources/disputes`), as the API spells them. */
export const DISPUTE_REASONS = [
  'ATM_CASH_MISDISPENSE',
  'CANCELLED',
  'DUPLICATED',
  'FRAUD_CARD_NOT_PRESENT',
  'FRAUD_CARD_PRESENT',
  'FRAUD_OTHER',
  'GOODS_SERVICES_NOT_AS_DESCRIBED',
  'GOODS_SERVICES_NOT_RECEIVED',
  'INCORRECT_AMOUNT',
  'MISSING_AUTH',
  'OTHER',
  'PROCESSING_ERROR',
  'RECURRING_TRANSACTION_NOT_CANCELLED',
  'REFUND_NOT_PROCESSED',
] as const;
export type DisputeReason = (typeof DISPUTE_REASONS)[number];

export const DISPUTE_STATUSES = ['NEW', 'PENDING_CUSTOMER', 'SUBMITTED', 'REPRESENTMENT', 'PREARBITRATION', 'ARBITRATION', 'CASE_WON', 'CASE_CLOSED'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** A case resolved in the cardholder's favour: the disputed amount comes back. */
export const WON_RESOLUTION_REASONS = ['WON_FIRST_CHARGEBACK', 'WON_PREARBITRATION', 'WON_ARBITRATION'] as const;
/** A case lost, refused or withdrawn: nothing comes back through the dispute. */
export const CLOSED_RESOLUTION_REASONS = [
  'CASE_LOST',
  'NETWORK_REJECTED',
  'NO_DISPUTE_RIGHTS_3DS',
  'NO_DISPUTE_RIGHTS_BELOW_THRESHOLD',
  'NO_DISPUTE_RIGHTS_CONTACTLESS',
  'NO_DISPUTE_RIGHTS_HYBRID',
  'NO_DISPUTE_RIGHTS_MAX_CHARGEBACKS',
  'NO_DISPUTE_RIGHTS_OTHER',
  'PAST_FILING_DATE',
  'PREARBITRATION_REJECTED',
  'PROCESSOR_REJECTED_OTHER',
  'REFUNDED',
  'REFUNDED_AFTER_CHARGEBACK',
  'WITHDRAWN',
] as const;
export const DISPUTE_RESOLUTION_REASONS = [...WON_RESOLUTION_REASONS, ...CLOSED_RESOLUTION_REASONS] as const;
export type DisputeResolutionReason = (typeof DISPUTE_RESOLUTION_REASONS)[number];

/** The statuses a dispute ends in; nothing moves it on from them. */
export const FINAL_DISPUTE_STATUSES: readonly DisputeStatus[] = ['CASE_WON', 'CASE_CLOSED'];

/**
 * Where a case may go from each status, following the network's stages: filed (NEW, or waiting on
 * the customer), submitted, then the merchant's representment, pre-arbitration and arbitration. A
 * case may be won or closed at any stage after it was submitted; before that it can only be closed
 * (withdrawn or refused), as nothing was asked of the network yet.
 */
export const DISPUTE_TRANSITIONS: Readonly<Record<DisputeStatus, readonly DisputeStatus[]>> = {
  NEW: ['PENDING_CUSTOMER', 'SUBMITTED', 'CASE_CLOSED'],
  PENDING_CUSTOMER: ['SUBMITTED', 'CASE_CLOSED'],
  SUBMITTED: ['REPRESENTMENT', 'CASE_WON', 'CASE_CLOSED'],
  REPRESENTMENT: ['PREARBITRATION', 'CASE_WON', 'CASE_CLOSED'],
  PREARBITRATION: ['ARBITRATION', 'CASE_WON', 'CASE_CLOSED'],
  ARBITRATION: ['CASE_WON', 'CASE_CLOSED'],
  CASE_WON: [],
  CASE_CLOSED: [],
};

/** Lithic's evidence upload statuses; ERROR and REJECTED are never reached here (an upload is taken or refused in the request). */
export type DisputeEvidenceStatus = 'DELETED' | 'ERROR' | 'PENDING' | 'REJECTED' | 'UPLOADED';

/**
 * The most an evidence file may hold, in bytes: it is kept in the ledger, as an event, and comes as
 * base64 in a JSON body, which the API takes up to 100 KiB of (64 KiB is 87,384 characters of base64).
 */
export const MAX_EVIDENCE_BYTES = 65_536;
