import { Conflict, InvalidInput, NotFound } from '../core/domain-error';
import type { DisputeStatus } from './dispute-values';

export class DisputeNotFound extends NotFound {
  static override readonly code = 'dispute_not_found';
  constructor(readonly disputeToken: string) {
    super(`Dispute ${disputeToken} not found`, 'dispute_token');
  }
}

export class DisputeEvidenceNotFound extends NotFound {
  static override readonly code = 'dispute_evidence_not_found';
  constructor(readonly evidenceToken: string) {
    super(`Dispute evidence ${evidenceToken} not found`, 'evidence_token');
  }
}

/** Lithic: a transaction can only be disputed once. */
export class TransactionAlreadyDisputed extends Conflict {
  static override readonly code = 'transaction_already_disputed';
  constructor(transactionToken: string) {
    super(`Transaction ${transactionToken} is already disputed`, 'transaction_token');
  }
}

/** Only money that moved can be charged back: a cleared (SETTLING or SETTLED) purchase. */
export class TransactionNotDisputable extends Conflict {
  static override readonly code = 'transaction_not_disputable';
  constructor(transactionToken: string, reason: string) {
    super(`Transaction ${transactionToken} cannot be disputed: ${reason}`, 'transaction_token');
  }
}

export class DisputeAmountOutOfRange extends InvalidInput {
  static override readonly code = 'dispute_amount_out_of_range';
  constructor(amount: number, settled: number) {
    super(`amount must be a positive number of cents no more than the transaction's settled ${settled}; got ${amount}`, 'amount');
  }
}

export class DisputeStateConflict extends Conflict {
  static override readonly code = 'dispute_state_conflict';
  constructor(disputeToken: string, status: DisputeStatus, action: string) {
    super(`Dispute ${disputeToken} is ${status}; ${action} is not allowed from it`, 'status');
  }
}

export class DisputeResolutionInvalid extends InvalidInput {
  static override readonly code = 'dispute_resolution_invalid';
  constructor(message: string) {
    super(message, 'resolution_reason');
  }
}

export class DisputeEvidenceStateConflict extends Conflict {
  static override readonly code = 'dispute_evidence_state_conflict';
  constructor(evidenceToken: string, status: string, action: string, needed = 'a PENDING upload') {
    super(`Dispute evidence ${evidenceToken} is ${status}; ${action} needs ${needed}`, 'evidence_token');
  }
}

export class DisputeEvidenceTooLarge extends InvalidInput {
  static override readonly code = 'dispute_evidence_too_large';
  constructor(size: number, limit: number) {
    super(`evidence is ${size} bytes; at most ${limit} are kept`, 'body');
  }
}

export class DisputeEvidenceEmpty extends InvalidInput {
  static override readonly code = 'dispute_evidence_empty';
  constructor() {
    super('evidence upload is empty', 'body');
  }
}
