import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { listOf } from '@ledger/contracts';
import type { EventProof, ExportedEvent, SignedDigest } from '@ledger/ledger-proof';

/**
 * Answers of the audit routes, each the type the code answers with and the document's schema.
 * SignedDigest and ExportedEvent are @ledger/ledger-proof's (the admin CLI verifies them too, without
 * the HTTP stack), so their schemas here implement them: the type check catches a field missing here.
 */

/**
 * One recorded event as auditors see it: what the store holds, hashes included, except that every
 * secret field of the data (SECRET_EVENT_FIELDS: the PAN's ciphertext and lookup hash, the PIN hash)
 * is replaced by a RedactedValue.
 */
@ApiSchema({ name: 'AuditedEventModel' })
export class AuditedEvent {
  @ApiProperty() stream_id!: string;
  @ApiProperty({ type: 'integer' }) stream_version!: number;
  @ApiProperty() position!: string;
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ type: 'integer' }) schema_version!: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The stored data, except that each secret field (panEncrypted, panHash, pinHash, ...) holds {"redacted": true, "sha256": <hex SHA-256 of the stored value as canonical JSON>}; the hash chain is over the stored values (docs/decisions.md, "Secrets at the edges")',
  })
  data!: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({ format: 'date-time' }) recorded_at!: string;
}

const HEX_HASH = { pattern: '^[0-9a-f]{64}$', description: 'SHA-256, lower-case hex' };

export class SignedDigestModel implements SignedDigest {
  @ApiProperty({ type: 'integer', description: 'How many events the digest covers: leaves 0..tree_size-1 in global-position order' }) tree_size!: number;
  @ApiProperty({ type: 'string', nullable: true, description: 'Global position of the last covered event; null for an empty log' }) position!: string | null;
  @ApiProperty({ ...HEX_HASH, description: 'RFC 9162 Merkle tree head over the covered events (docs/audit.md)' }) root!: string;
  @ApiProperty({ format: 'date-time' }) signed_at!: string;
  @ApiProperty({ pattern: '^[0-9a-f]{16}$', description: 'First 16 hex digits of SHA-256 of the raw Ed25519 public key' }) key_id!: string;
  @ApiProperty({ pattern: '^[0-9a-f]{64}$', description: 'Raw Ed25519 public key, hex: pin it out of band, do not trust it from the digest itself' }) public_key!: string;
  @ApiProperty({ pattern: '^[0-9a-f]{128}$', description: 'Ed25519 signature of the digest\'s signing bytes (docs/audit.md)' }) signature!: string;
}

export class ProvenEventModel implements ExportedEvent {
  @ApiProperty() stream_id!: string;
  @ApiProperty({ type: 'integer' }) stream_version!: number;
  @ApiProperty() position!: string;
  @ApiProperty() type!: string;
  @ApiProperty({ type: 'integer' }) schema_version!: number;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'As in the audited events: secret fields redacted to their SHA-256, which is also what the leaf commits to' }) data!: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: ExportedEvent['metadata'];
  @ApiProperty({ format: 'date-time' }) recorded_at!: string;
}

/** An inclusion proof, with the root of the tree of tree_size events: the one the auditor's saved digest must show. */
@ApiSchema({ name: 'EventProofModel' })
export class EventProofResponse implements EventProof {
  // ledger-proof's type leaves recorded_at optional (an exported log may lack it); every event served here has it.
  @ApiProperty({ type: ProvenEventModel }) event!: ExportedEvent;
  @ApiProperty({ ...HEX_HASH, description: 'SHA-256(0x00 || leaf bytes of the event): recompute it from event' }) leaf_hash!: string;
  @ApiProperty({ type: 'integer', description: 'The event\'s index in the log (0-based, global-position order)' }) leaf_index!: number;
  @ApiProperty({ type: 'integer' }) tree_size!: number;
  @ApiProperty({ type: [String], description: 'RFC 9162 inclusion proof, leaf side first, hex' }) audit_path!: string[];
  @ApiProperty({ ...HEX_HASH, description: 'Root of the tree of tree_size events: the saved digest\'s root must be this' }) root!: string;
}

@ApiSchema({ name: 'ConsistencyProofModel' })
export class ConsistencyResponse {
  @ApiProperty({ type: 'integer' }) from!: number;
  @ApiProperty({ type: 'integer' }) to!: number;
  @ApiProperty(HEX_HASH) from_root!: string;
  @ApiProperty(HEX_HASH) to_root!: string;
  @ApiProperty({ type: [String], description: 'RFC 9162 consistency proof, hex' }) proof!: string[];
}

/** Totals are sums over any number of transactions: int64 JSON integers that may pass 2^53, written exactly. */
const ApiTotalProperty = (meaning: string) =>
  ApiProperty({
    type: 'integer',
    format: 'int64',
    description: `${meaning}, in cents. An exact int64 that may exceed 2^53 (9007199254740992): parse it with a big-integer-aware JSON reader, or lose the last digits`,
  });

/**
 * Pending and settled totals, in cents, of a card or a funding source; each counts the statuses the
 * domain gives it (BALANCE_STATUSES).
 */
@ApiSchema({ name: 'BalanceModel' })
export class BalanceResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiTotalProperty('Sum of the amounts of PENDING transactions') pending!: bigint;
  @ApiTotalProperty('Sum of the settled amounts of SETTLING and SETTLED transactions (returns negative)') settled!: bigint;
  @ApiTotalProperty('Of settled, the SETTLED part') settlement_complete!: bigint;
  @ApiTotalProperty('Sum of the settled amounts of BOUNCED transactions') bounced!: bigint;
}

export const AuditedEventListModel = listOf(AuditedEvent, 'AuditedEventList');
