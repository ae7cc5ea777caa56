import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { DISPUTE_REASONS, DISPUTE_RESOLUTION_REASONS, DISPUTE_STATUSES, type DisputeReason, type DisputeResolutionReason, type DisputeStatus } from '@ledger/domain';
import { parseInstantParameter } from './query-parameters';
import { TokenField } from './token-field';
import { PagedDateRangeParams } from './validation';
import { CentsField, OneOfField, PatternField, TextField, valueField } from './value-fields';

/** Lithic's customer_filed_date: an RFC 3339 instant, kept as sent in UTC. */
function FiledDateField(): PropertyDecorator {
  const message = 'customer_filed_date must be an RFC 3339 instant, YYYY-MM-DDThh:mm:ss[.fraction] with Z or an offset';
  return (target, key) => {
    Transform(({ value }) => {
      const instant = parseInstantParameter(value);
      return instant === null ? value : instant.toISOString();
    })(target, key);
    valueField({ type: String, format: 'date-time' }, { optional: true, description: 'When the cardholder filed the dispute' }, [
      IsString(),
      ValidateBy({ name: 'instant', validator: { validate: (value: unknown) => parseInstantParameter(value) !== null, defaultMessage: () => message } }),
    ])(target, key);
  };
}

/** POST /v1/disputes. */
export class CreateDisputeRequest {
  @CentsField({ minimum: 1, description: "Cents; at most what the transaction settled" })
  amount!: number;

  @OneOfField(DISPUTE_REASONS)
  reason!: DisputeReason;

  @TokenField({ description: 'The cleared card transaction disputed' })
  transaction_token!: string;

  @FiledDateField()
  customer_filed_date?: string;

  @TextField(5000, { optional: true })
  customer_note?: string;
}

/** PATCH /v1/disputes/{dispute_token}: only while NEW; the fields sent change, the others stay. */
export class UpdateDisputeRequest {
  @CentsField({ minimum: 1, optional: true, description: "Cents; at most what the transaction settled" })
  amount?: number;

  @OneOfField(DISPUTE_REASONS, { optional: true })
  reason?: DisputeReason;

  @FiledDateField()
  customer_filed_date?: string;

  @TextField(5000, { optional: true })
  customer_note?: string;
}

export class DisputeTokenParam {
  @TokenField()
  dispute_token!: string;
}

export class DisputeEvidenceParams {
  @TokenField()
  dispute_token!: string;

  @TokenField()
  evidence_token!: string;
}

const MAX_TRANSACTION_TOKENS_LENGTH = 100 * 37 - 1;

/**
 * `transaction_tokens`: Lithic's SDK sends a list as one comma-separated value. Any text is taken: a
 * value that is no transaction's token lists nothing, as a filter naming nothing does.
 */
function TransactionTokensParameter(): PropertyDecorator {
  return (target, key) => {
    // At most 100 tokens (36 characters each, and the commas between them).
    ApiPropertyOptional({ type: 'string', maxLength: MAX_TRANSACTION_TOKENS_LENGTH, description: 'Comma-separated transaction tokens, at most 100' })(target, key);
    IsOptional()(target, key);
    IsString()(target, key);
    MaxLength(MAX_TRANSACTION_TOKENS_LENGTH)(target, key);
  };
}

/** The tokens a `transaction_tokens` value names, in lower case as tokens are kept. */
export function transactionTokensOf(value: string): string[] {
  return value.split(',').map((token) => token.trim().toLowerCase());
}

/** GET /v1/disputes: oldest first, as every list here. */
export class ListDisputesParams extends PagedDateRangeParams {
  @OneOfField(DISPUTE_STATUSES, { optional: true })
  status?: DisputeStatus;

  @TransactionTokensParameter()
  transaction_tokens?: string;
}

/** GET /v1/disputes/{dispute_token}/evidences. */
export class ListDisputeEvidencesParams extends PagedDateRangeParams {}

/** POST /v1/disputes/{dispute_token}/evidences. */
export class InitiateDisputeEvidenceRequest {
  @TextField(255, { optional: true, description: 'A name for the file' })
  filename?: string;
}

/** POST /v1/simulate/disputes/{dispute_token}/advance: the network's move of the case (ours: Lithic moves cases itself). */
export class AdvanceDisputeRequest {
  @OneOfField(DISPUTE_STATUSES)
  status!: DisputeStatus;

  @OneOfField(DISPUTE_RESOLUTION_REASONS, { optional: true, description: 'Only with CASE_WON or CASE_CLOSED; absent: the one the stage implies' })
  resolution_reason?: DisputeResolutionReason;
}

/** Padded base64 (RFC 4648): the check and its documentation in one pattern, so generated clients and fuzzers send what is taken. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** PUT /v1/disputes/{dispute_token}/evidences/{evidence_token}/upload: the file, base64, in JSON (the API takes no other body). */
export class UploadDisputeEvidenceRequest {
  @PatternField(BASE64, 'content_base64 must be base64 (RFC 4648, padded)', { description: 'The file, base64; at most 64 KiB of bytes' })
  content_base64!: string;
}
