import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { DISPUTE_REASONS, DISPUTE_RESOLUTION_REASONS, DISPUTE_STATUSES, type DisputeEvidence, type FiledDispute } from '@ledger/domain';
import { pageOf } from './responses';

/** Lithic's Dispute and DisputeEvidence (`lithic/resources/disputes`). */

@ApiSchema({ name: 'DisputeModel' })
export class DisputeResponse {
  @ApiProperty({ format: 'uuid', description: "Made from the transaction's token: a transaction is disputed once" }) token!: string;
  @ApiProperty({ type: 'integer', description: 'Cents under dispute' }) amount!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) arbitration_date!: string | null;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) customer_filed_date!: string | null;
  @ApiProperty({ type: String, nullable: true }) customer_note!: string | null;
  @ApiProperty({ type: [String], nullable: true, description: 'Always null: no card network here' }) network_claim_ids!: string[] | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the case was SUBMITTED' }) network_filed_date!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Always null: no card network here' }) network_reason_code!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) prearbitration_date!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Always null: no card network here' }) primary_claim_id!: string | null;
  @ApiProperty({ enum: DISPUTE_REASONS }) reason!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) representment_date!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) resolution_date!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Always null' }) resolution_note!: string | null;
  @ApiProperty({ enum: DISPUTE_RESOLUTION_REASONS, nullable: true }) resolution_reason!: string | null;
  @ApiProperty({ enum: DISPUTE_STATUSES }) status!: string;
  @ApiProperty({ format: 'uuid' }) transaction_token!: string;
}

@ApiSchema({ name: 'DisputeEvidenceModel' })
export class DisputeEvidenceResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ format: 'uuid' }) dispute_token!: string;
  @ApiProperty({ enum: ['DELETED', 'ERROR', 'PENDING', 'REJECTED', 'UPLOADED'] }) upload_status!: string;
  @ApiPropertyOptional({ description: 'Only when UPLOADED: the path (on this service) that gives the file back' }) download_url?: string;
  @ApiPropertyOptional() filename?: string;
  @ApiPropertyOptional({ description: 'Only when PENDING: the path (on this service) to PUT the file to, as JSON {"content_base64": ...}' }) upload_url?: string;
}

/** GET /v1/disputes/{dispute_token}/evidences/{evidence_token}/download: the file as it was uploaded. */
@ApiSchema({ name: 'DisputeEvidenceFileModel' })
export class DisputeEvidenceFileResponse {
  @ApiProperty({ type: String, nullable: true }) filename!: string | null;
  @ApiProperty({ type: 'integer', description: 'Bytes' }) size!: number;
  @ApiProperty({ description: 'The bytes, base64' }) content_base64!: string;
}

export const DisputePageModel = pageOf(DisputeResponse, 'DisputePage');
export const DisputeEvidencePageModel = pageOf(DisputeEvidenceResponse, 'DisputeEvidencePage');

/** The webhook `dispute.updated`: the dispute as retrieve shows it, with Lithic's event type. */
export type DisputeUpdatedBody = DisputeResponse & { readonly event_type: 'dispute.updated' };

export function presentDispute(dispute: FiledDispute): DisputeResponse {
  const { dates } = dispute;
  return {
    token: dispute.disputeToken,
    amount: dispute.amount,
    arbitration_date: dates.arbitration,
    created: dispute.created,
    customer_filed_date: dispute.customerFiledDate,
    customer_note: dispute.customerNote,
    network_claim_ids: null,
    network_filed_date: dates.networkFiled,
    network_reason_code: null,
    prearbitration_date: dates.prearbitration,
    primary_claim_id: null,
    reason: dispute.reason,
    representment_date: dates.representment,
    resolution_date: dates.resolution,
    resolution_note: null,
    resolution_reason: dispute.resolutionReason,
    status: dispute.status,
    transaction_token: dispute.transactionToken,
  };
}

export function disputeUpdatedBody(dispute: FiledDispute): DisputeUpdatedBody {
  return { event_type: 'dispute.updated', ...presentDispute(dispute) };
}

export function presentDisputeEvidence(dispute: FiledDispute, evidence: DisputeEvidence): DisputeEvidenceResponse {
  const path = `/v1/disputes/${dispute.disputeToken}/evidences/${evidence.evidenceToken}`;
  return {
    token: evidence.evidenceToken,
    created: evidence.created,
    dispute_token: dispute.disputeToken,
    upload_status: evidence.status,
    ...(evidence.filename === null ? {} : { filename: evidence.filename }),
    ...(evidence.status === 'PENDING' ? { upload_url: `${path}/upload` } : {}),
    ...(evidence.status === 'UPLOADED' ? { download_url: `${path}/download` } : {}),
  };
}
