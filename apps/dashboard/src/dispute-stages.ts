/**
 * Lithic's dispute reasons and the stages a case moves through, as the API takes them. The dashboard
 * is built without the service's libraries, so it keeps its own copy; a Node spec pins it to the
 * domain's lists. The API stays the judge: a move it refuses shows its 409.
 */
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
];

export const DISPUTE_STATUSES = ['NEW', 'PENDING_CUSTOMER', 'SUBMITTED', 'REPRESENTMENT', 'PREARBITRATION', 'ARBITRATION', 'CASE_WON', 'CASE_CLOSED'];

/** Where the sandbox's network may move a case from each status (`POST /v1/simulate/disputes/{token}/advance`). */
export const DISPUTE_TRANSITIONS: Readonly<Record<string, readonly string[]>> = {
  NEW: ['PENDING_CUSTOMER', 'SUBMITTED', 'CASE_CLOSED'],
  PENDING_CUSTOMER: ['SUBMITTED', 'CASE_CLOSED'],
  SUBMITTED: ['REPRESENTMENT', 'CASE_WON', 'CASE_CLOSED'],
  REPRESENTMENT: ['PREARBITRATION', 'CASE_WON', 'CASE_CLOSED'],
  PREARBITRATION: ['ARBITRATION', 'CASE_WON', 'CASE_CLOSED'],
  ARBITRATION: ['CASE_WON', 'CASE_CLOSED'],
  CASE_WON: [],
  CASE_CLOSED: [],
};

/** What a button that moves a case to each stage says. */
export const STAGE_ACTION_TEXT: Readonly<Record<string, string>> = {
  PENDING_CUSTOMER: 'Ask customer',
  SUBMITTED: 'Submit',
  REPRESENTMENT: 'Representment',
  PREARBITRATION: 'Pre-arbitration',
  ARBITRATION: 'Arbitration',
  CASE_WON: 'Win',
  CASE_CLOSED: 'Close (lost)',
};

/** A case that has not ended can still be withdrawn by the program (`DELETE /v1/disputes/{token}`). */
export const isOpenDispute = (status: string): boolean => (DISPUTE_TRANSITIONS[status] ?? []).length > 0;
