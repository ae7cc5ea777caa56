import { assertNever, Decider, DecisionContext } from '../core/decider';
import { hashedToken } from '../financial-accounts/financial-account';
import type { CreditDisputeWon, ExistingTransaction, Transaction } from '../transactions/transaction';
import { TransactionNotFound } from '../transactions/transaction-errors';
import {
  DisputeAmountOutOfRange,
  DisputeEvidenceEmpty,
  DisputeEvidenceNotFound,
  DisputeEvidenceStateConflict,
  DisputeEvidenceTooLarge,
  DisputeNotFound,
  DisputeResolutionInvalid,
  DisputeStateConflict,
  TransactionAlreadyDisputed,
  TransactionNotDisputable,
} from './dispute-errors';
import {
  CLOSED_RESOLUTION_REASONS,
  DISPUTE_TRANSITIONS,
  type DisputeEvidenceStatus,
  type DisputeReason,
  type DisputeResolutionReason,
  type DisputeStatus,
  FINAL_DISPUTE_STATUSES,
  MAX_EVIDENCE_BYTES,
  WON_RESOLUTION_REASONS,
} from './dispute-values';

/**
 * A dispute (chargeback) of a card transaction, on a stream of its own, `dispute-<token>`: filed on
 * a cleared purchase for at most what it settled, amended while NEW, moved through the network's
 * stages (in the sandbox by simulation), withdrawn, and its evidence files uploaded into the ledger.
 *
 * Money: nothing moves while the case runs (no provisional credit); a case won gives its amount back
 * on the transaction's own stream (TransactionDisputeWon, in the same write), so every balance,
 * which is folded from the transaction events, moves back; a case closed moves nothing.
 *
 * The dispute's token is made from its transaction's (a name-based token), so a second dispute of
 * the same transaction finds the stream taken: Lithic disputes a transaction once.
 */

export const DISPUTE_STREAM_CATEGORY = 'dispute';
export const disputeStreamId = (disputeToken: string): string => `${DISPUTE_STREAM_CATEGORY}-${disputeToken}`;
export const isDisputeStream = (streamId: string): boolean => streamId.startsWith(`${DISPUTE_STREAM_CATEGORY}-`);
export const disputeTokenOf = (transactionToken: string): string => hashedToken(`dispute/${transactionToken.toLowerCase()}`);

// ---------------------------------------------------------------- events

export interface DisputeFiled {
  readonly type: 'DisputeFiled';
  readonly data: {
    readonly disputeToken: string;
    readonly programToken: string;
    readonly transactionToken: string;
    readonly cardToken: string;
    readonly amount: number;
    readonly reason: DisputeReason;
    readonly customerFiledDate: string | null;
    readonly customerNote: string | null;
    readonly at: string;
  };
}

/** The fields an update changed, as sent (only while NEW). */
export interface DisputeAmended {
  readonly type: 'DisputeAmended';
  readonly data: { readonly disputeToken: string; readonly at: string } & DisputeAmendment;
}

/** The case moved to another stage, or ended (with its resolution reason). */
export interface DisputeStatusChanged {
  readonly type: 'DisputeStatusChanged';
  readonly data: { readonly disputeToken: string; readonly status: DisputeStatus; readonly resolutionReason: DisputeResolutionReason | null; readonly at: string };
}

export interface DisputeEvidenceRequested {
  readonly type: 'DisputeEvidenceRequested';
  readonly data: { readonly disputeToken: string; readonly evidenceToken: string; readonly filename: string | null; readonly at: string };
}

/** The file itself, base64, in the ledger: what a download gives back, byte for byte. */
export interface DisputeEvidenceUploaded {
  readonly type: 'DisputeEvidenceUploaded';
  readonly data: { readonly disputeToken: string; readonly evidenceToken: string; readonly size: number; readonly contentBase64: string; readonly at: string };
}

export interface DisputeEvidenceDeleted {
  readonly type: 'DisputeEvidenceDeleted';
  readonly data: { readonly disputeToken: string; readonly evidenceToken: string; readonly at: string };
}

export type DisputeEvent = DisputeFiled | DisputeAmended | DisputeStatusChanged | DisputeEvidenceRequested | DisputeEvidenceUploaded | DisputeEvidenceDeleted;

// ---------------------------------------------------------------- state

export interface DisputeEvidence {
  readonly evidenceToken: string;
  readonly filename: string | null;
  readonly status: Extract<DisputeEvidenceStatus, 'PENDING' | 'UPLOADED' | 'DELETED'>;
  readonly created: string;
  readonly size: number | null;
  readonly contentBase64: string | null;
}

export interface DisputeAmendment {
  readonly amount?: number;
  readonly reason?: DisputeReason;
  readonly customerFiledDate?: string;
  readonly customerNote?: string;
}

/** When the case entered each stage (Lithic's dates), set as it does. */
export interface DisputeDates {
  readonly networkFiled: string | null;
  readonly representment: string | null;
  readonly prearbitration: string | null;
  readonly arbitration: string | null;
  readonly resolution: string | null;
}

export interface FiledDispute {
  readonly status: DisputeStatus;
  readonly disputeToken: string;
  readonly programToken: string;
  readonly transactionToken: string;
  readonly cardToken: string;
  readonly amount: number;
  readonly reason: DisputeReason;
  readonly customerFiledDate: string | null;
  readonly customerNote: string | null;
  readonly resolutionReason: DisputeResolutionReason | null;
  readonly dates: DisputeDates;
  readonly created: string;
  readonly updated: string;
  readonly evidences: readonly DisputeEvidence[];
}

export type Dispute = { readonly status: 'ABSENT' } | FiledDispute;

// ---------------------------------------------------------------- commands

export interface FileDispute {
  readonly type: 'FileDispute';
  readonly programToken: string;
  readonly transactionToken: string;
  readonly amount: number;
  readonly reason: DisputeReason;
  readonly customerFiledDate?: string;
  readonly customerNote?: string;
}

export interface AmendDispute extends DisputeAmendment {
  readonly type: 'AmendDispute';
  readonly programToken: string;
  readonly disputeToken: string;
}

/** Lithic's delete: the case is withdrawn (CASE_CLOSED, WITHDRAWN). */
export interface WithdrawDispute {
  readonly type: 'WithdrawDispute';
  readonly programToken: string;
  readonly disputeToken: string;
}

/** The network's (in the sandbox, the simulation's) move of the case to another stage. */
export interface AdvanceDispute {
  readonly type: 'AdvanceDispute';
  readonly programToken: string;
  readonly disputeToken: string;
  readonly status: DisputeStatus;
  readonly resolutionReason?: DisputeResolutionReason;
}

export interface RequestDisputeEvidence {
  readonly type: 'RequestDisputeEvidence';
  readonly programToken: string;
  readonly disputeToken: string;
  readonly evidenceToken: string;
  readonly filename?: string;
}

export interface UploadDisputeEvidence {
  readonly type: 'UploadDisputeEvidence';
  readonly programToken: string;
  readonly disputeToken: string;
  readonly evidenceToken: string;
  readonly content: Uint8Array;
}

export interface DeleteDisputeEvidence {
  readonly type: 'DeleteDisputeEvidence';
  readonly programToken: string;
  readonly disputeToken: string;
  readonly evidenceToken: string;
}

export type DisputeCommand = FileDispute | AmendDispute | WithdrawDispute | AdvanceDispute | RequestDisputeEvidence | UploadDisputeEvidence | DeleteDisputeEvidence;

/** What a dispute is decided on beside its own stream: its transaction (for filing and for a case won). */
export interface DisputeContext extends DecisionContext {
  readonly transaction: Transaction;
}

// ---------------------------------------------------------------- decide

/** The program's dispute under the token; another program's is reported exactly like a missing one. */
export function ownedDispute(dispute: Dispute, disputeToken: string, programToken: string): FiledDispute {
  if (dispute.status === 'ABSENT' || dispute.programToken !== programToken) throw new DisputeNotFound(disputeToken);
  return dispute;
}

export function ownedEvidence(dispute: FiledDispute, evidenceToken: string): DisputeEvidence {
  const evidence = dispute.evidences.find((candidate) => candidate.evidenceToken === evidenceToken);
  if (!evidence) throw new DisputeEvidenceNotFound(evidenceToken);
  return evidence;
}

export function decideDispute(command: DisputeCommand, dispute: Dispute, { now, transaction }: DisputeContext): DisputeEvent[] {
  const at = now.toISOString();
  switch (command.type) {
    case 'FileDispute': {
      const disputed = disputableTransaction(transaction, command.transactionToken, command.programToken);
      if (dispute.status !== 'ABSENT') throw new TransactionAlreadyDisputed(command.transactionToken);
      withinSettled(command.amount, disputed);
      const { programToken, transactionToken, amount, reason } = command;
      const disputeToken = disputeTokenOf(transactionToken);
      return [
        {
          type: 'DisputeFiled',
          data: { disputeToken, programToken, transactionToken, cardToken: disputed.cardToken, amount, reason, customerFiledDate: command.customerFiledDate ?? null, customerNote: command.customerNote ?? null, at },
        },
      ];
    }
    case 'AmendDispute': {
      const filed = ownedDispute(dispute, command.disputeToken, command.programToken);
      if (filed.status !== 'NEW') throw new DisputeStateConflict(filed.disputeToken, filed.status, 'an update');
      if (command.amount !== undefined) withinSettled(command.amount, existingTransaction(transaction, filed));
      const amendment = definedFields({ amount: command.amount, reason: command.reason, customerFiledDate: command.customerFiledDate, customerNote: command.customerNote });
      return [{ type: 'DisputeAmended', data: { disputeToken: filed.disputeToken, at, ...amendment } }];
    }
    case 'WithdrawDispute': {
      const filed = ownedDispute(dispute, command.disputeToken, command.programToken);
      if (FINAL_DISPUTE_STATUSES.includes(filed.status)) throw new DisputeStateConflict(filed.disputeToken, filed.status, 'a withdrawal');
      return [{ type: 'DisputeStatusChanged', data: { disputeToken: filed.disputeToken, status: 'CASE_CLOSED', resolutionReason: 'WITHDRAWN', at } }];
    }
    case 'AdvanceDispute': {
      const filed = ownedDispute(dispute, command.disputeToken, command.programToken);
      if (!DISPUTE_TRANSITIONS[filed.status].includes(command.status)) throw new DisputeStateConflict(filed.disputeToken, filed.status, `a move to ${command.status}`);
      const resolutionReason = resolutionOf(filed, command.status, command.resolutionReason);
      return [{ type: 'DisputeStatusChanged', data: { disputeToken: filed.disputeToken, status: command.status, resolutionReason, at } }];
    }
    case 'RequestDisputeEvidence': {
      const filed = ownedDispute(dispute, command.disputeToken, command.programToken);
      if (FINAL_DISPUTE_STATUSES.includes(filed.status)) throw new DisputeStateConflict(filed.disputeToken, filed.status, 'new evidence');
      return [{ type: 'DisputeEvidenceRequested', data: { disputeToken: filed.disputeToken, evidenceToken: command.evidenceToken, filename: command.filename ?? null, at } }];
    }
    case 'UploadDisputeEvidence': {
      const filed = ownedDispute(dispute, command.disputeToken, command.programToken);
      const evidence = ownedEvidence(filed, command.evidenceToken);
      if (evidence.status !== 'PENDING') throw new DisputeEvidenceStateConflict(evidence.evidenceToken, evidence.status, 'an upload');
      if (command.content.byteLength === 0) throw new DisputeEvidenceEmpty();
      if (command.content.byteLength > MAX_EVIDENCE_BYTES) throw new DisputeEvidenceTooLarge(command.content.byteLength, MAX_EVIDENCE_BYTES);
      const contentBase64 = Buffer.from(command.content).toString('base64');
      return [{ type: 'DisputeEvidenceUploaded', data: { disputeToken: filed.disputeToken, evidenceToken: evidence.evidenceToken, size: command.content.byteLength, contentBase64, at } }];
    }
    case 'DeleteDisputeEvidence': {
      const filed = ownedDispute(dispute, command.disputeToken, command.programToken);
      const evidence = ownedEvidence(filed, command.evidenceToken);
      // Deleting twice is not an error: the evidence is withdrawn either way.
      if (evidence.status === 'DELETED') return [];
      return [{ type: 'DisputeEvidenceDeleted', data: { disputeToken: filed.disputeToken, evidenceToken: evidence.evidenceToken, at } }];
    }
    default:
      return assertNever(command);
  }
}

/**
 * The transaction command a dispute's new events call for: a case won gives its amount back on the
 * transaction's stream, in the same write. `eventToken` is the credit's own event token.
 */
export function disputeCredit(dispute: FiledDispute, events: readonly DisputeEvent[], eventToken: string): CreditDisputeWon | null {
  const won = events.some((event) => event.type === 'DisputeStatusChanged' && event.data.status === 'CASE_WON');
  if (!won) return null;
  return { type: 'CreditDisputeWon', transactionToken: dispute.transactionToken, programToken: dispute.programToken, disputeToken: dispute.disputeToken, eventToken, amount: dispute.amount };
}

/** Only a purchase that cleared (money moved) can be charged back, and only while its money is out. */
function disputableTransaction(transaction: Transaction, transactionToken: string, programToken: string): ExistingTransaction {
  if (transaction.status === 'ABSENT' || transaction.programToken !== programToken) throw new TransactionNotFound(transactionToken);
  if (transaction.status !== 'SETTLING' && transaction.status !== 'SETTLED') throw new TransactionNotDisputable(transactionToken, `it is ${transaction.status}, not cleared`);
  if (transaction.settledAmount <= 0) throw new TransactionNotDisputable(transactionToken, 'it moved no money to the merchant');
  return transaction;
}

function existingTransaction(transaction: Transaction, dispute: FiledDispute): ExistingTransaction {
  if (transaction.status === 'ABSENT') throw new TransactionNotFound(dispute.transactionToken);
  return transaction;
}

function withinSettled(amount: number, transaction: ExistingTransaction): void {
  if (!Number.isSafeInteger(amount) || amount <= 0 || amount > transaction.settledAmount) throw new DisputeAmountOutOfRange(amount, transaction.settledAmount);
}

/**
 * A final status needs a reason of its side (won or closed); absent, the one the stage implies: a win
 * at the first chargeback, in pre-arbitration or in arbitration, and a closed case is lost. Open
 * stages carry none.
 */
function resolutionOf(dispute: FiledDispute, status: DisputeStatus, given: DisputeResolutionReason | undefined): DisputeResolutionReason | null {
  if (status === 'CASE_WON') {
    const reason = given ?? (dispute.status === 'ARBITRATION' ? 'WON_ARBITRATION' : dispute.status === 'PREARBITRATION' ? 'WON_PREARBITRATION' : 'WON_FIRST_CHARGEBACK');
    if (!(WON_RESOLUTION_REASONS as readonly string[]).includes(reason)) throw new DisputeResolutionInvalid(`a won case's resolution_reason is one of ${WON_RESOLUTION_REASONS.join(', ')}`);
    return reason;
  }
  if (status === 'CASE_CLOSED') {
    const reason = given ?? 'CASE_LOST';
    if (!(CLOSED_RESOLUTION_REASONS as readonly string[]).includes(reason)) throw new DisputeResolutionInvalid(`a closed case's resolution_reason is one of ${CLOSED_RESOLUTION_REASONS.join(', ')}`);
    return reason;
  }
  if (given !== undefined) throw new DisputeResolutionInvalid(`resolution_reason is only given with CASE_WON or CASE_CLOSED, not ${status}`);
  return null;
}

function definedFields(amendment: DisputeAmendment): DisputeAmendment {
  return Object.fromEntries(Object.entries(amendment).filter(([, value]) => value !== undefined)) as DisputeAmendment;
}

// ---------------------------------------------------------------- evolve

const NO_DATES: DisputeDates = { networkFiled: null, representment: null, prearbitration: null, arbitration: null, resolution: null };

function datesAfter(dates: DisputeDates, status: DisputeStatus, at: string): DisputeDates {
  switch (status) {
    case 'SUBMITTED':
      return { ...dates, networkFiled: at };
    case 'REPRESENTMENT':
      return { ...dates, representment: at };
    case 'PREARBITRATION':
      return { ...dates, prearbitration: at };
    case 'ARBITRATION':
      return { ...dates, arbitration: at };
    case 'CASE_WON':
    case 'CASE_CLOSED':
      return { ...dates, resolution: at };
    default:
      return dates;
  }
}

function withEvidence(dispute: FiledDispute, evidenceToken: string, change: (evidence: DisputeEvidence) => DisputeEvidence): DisputeEvidence[] {
  return dispute.evidences.map((evidence) => (evidence.evidenceToken === evidenceToken ? change(evidence) : evidence));
}

export function evolveDispute(dispute: Dispute, event: DisputeEvent): Dispute {
  if (event.type === 'DisputeFiled') {
    const { disputeToken, programToken, transactionToken, cardToken, amount, reason, customerFiledDate, customerNote, at } = event.data;
    return { status: 'NEW', disputeToken, programToken, transactionToken, cardToken, amount, reason, customerFiledDate, customerNote, resolutionReason: null, dates: NO_DATES, created: at, updated: at, evidences: [] };
  }
  if (dispute.status === 'ABSENT') return dispute;
  switch (event.type) {
    case 'DisputeAmended': {
      const { disputeToken: _token, at, ...amendment } = event.data;
      return { ...dispute, ...amendment, updated: at };
    }
    case 'DisputeStatusChanged': {
      const { status, resolutionReason, at } = event.data;
      return { ...dispute, status, resolutionReason, dates: datesAfter(dispute.dates, status, at), updated: at };
    }
    case 'DisputeEvidenceRequested': {
      const { evidenceToken, filename, at } = event.data;
      return { ...dispute, evidences: [...dispute.evidences, { evidenceToken, filename, status: 'PENDING', created: at, size: null, contentBase64: null }] };
    }
    case 'DisputeEvidenceUploaded': {
      const { evidenceToken, size, contentBase64 } = event.data;
      return { ...dispute, evidences: withEvidence(dispute, evidenceToken, (evidence) => ({ ...evidence, status: 'UPLOADED', size, contentBase64 })) };
    }
    case 'DisputeEvidenceDeleted':
      return { ...dispute, evidences: withEvidence(dispute, event.data.evidenceToken, (evidence) => ({ ...evidence, status: 'DELETED' })) };
    default:
      return assertNever(event);
  }
}

export const disputeDecider: Decider<DisputeCommand, DisputeEvent, Dispute, DisputeContext> = {
  initialState: () => ({ status: 'ABSENT' }),
  decide: decideDispute,
  evolve: evolveDispute,
};
