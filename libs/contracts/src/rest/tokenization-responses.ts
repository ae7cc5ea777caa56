import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { type ExistingTokenization, type TokenizationDecided, TOKENIZATION_STATUSES, tokenizationChannelOf, tokenRequestorNameOf, tokenUniqueReferenceOf } from '@ledger/domain';
import { pageOf } from './responses';

/** Lithic's Tokenization (`lithic/resources/tokenizations`). */

@ApiSchema({ name: 'TokenizationEventModel' })
export class TokenizationEventResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ description: "APPROVED, DECLINED or REQUIRE_ADDITIONAL_AUTHENTICATION for the wallet's request; TOKEN_ACTIVATED, TOKEN_SUSPENDED, TOKEN_DEACTIVATED, TOKEN_UPDATED or NOTIFICATION_DELIVERED after it" }) result!: string;
  @ApiProperty({ enum: ['TOKENIZATION_AUTHORIZATION', 'TOKENIZATION_UPDATED', 'TOKENIZATION_2FA'] }) type!: string;
  @ApiProperty({ type: [Object], description: 'No tokenization rules here: always empty' }) rule_results!: never[];
  @ApiProperty({ type: [String] }) tokenization_decline_reasons!: string[];
  @ApiProperty({ type: [String] }) tokenization_tfa_reasons!: string[];
}

@ApiSchema({ name: 'TokenizationModel' })
export class TokenizationResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ format: 'uuid', description: "The program's token: an account here is the program" }) account_token!: string;
  @ApiProperty({ format: 'uuid' }) card_token!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, nullable: true, description: "The device's own number is the network's; the sandbox issues none" }) dpan!: null;
  @ApiProperty({ enum: TOKENIZATION_STATUSES }) status!: string;
  @ApiProperty({ description: 'APPLE_PAY, GOOGLE_PAY, SAMSUNG_PAY, or UNKNOWN for a merchant token' }) token_requestor_name!: string;
  @ApiProperty({ description: "The network's reference for the token: DNITHE and the token's hex digits" }) token_unique_reference!: string;
  @ApiProperty({ enum: ['DIGITAL_WALLET', 'MERCHANT'] }) tokenization_channel!: 'DIGITAL_WALLET' | 'MERCHANT';
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) device_id!: null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true }) digital_card_art_token!: string | null;
  @ApiProperty({ type: [TokenizationEventResponse] }) events!: TokenizationEventResponse[];
  @ApiPropertyOptional({ type: String, nullable: true }) payment_account_reference_id!: null;
}

export const TokenizationPageModel = pageOf(TokenizationResponse, 'TokenizationPage');

export function presentTokenization(tokenization: ExistingTokenization): TokenizationResponse {
  return {
    token: tokenization.tokenizationToken,
    account_token: tokenization.programToken,
    card_token: tokenization.cardToken,
    created_at: tokenization.createdAt,
    dpan: null,
    status: tokenization.tokenStatus,
    token_requestor_name: tokenRequestorNameOf(tokenization.source),
    token_unique_reference: tokenUniqueReferenceOf(tokenization.tokenizationToken),
    tokenization_channel: tokenizationChannelOf(tokenization.source),
    updated_at: tokenization.updatedAt,
    device_id: null,
    digital_card_art_token: tokenization.digitalCardArtToken,
    events: tokenization.history.map((entry) => ({
      token: entry.eventToken,
      created_at: entry.at,
      result: entry.result,
      type: entry.type,
      rule_results: [],
      tokenization_decline_reasons: [...entry.declineReasons],
      tokenization_tfa_reasons: [...entry.tfaReasons],
    })),
    payment_account_reference_id: null,
  };
}

@ApiSchema({ name: 'ApplePayProvisioningPayloadModel' })
export class ApplePayProvisioningPayload {
  @ApiProperty() activationData!: string;
  @ApiProperty() encryptedData!: string;
  @ApiProperty() ephemeralPublicKey!: string;
}

@ApiSchema({ name: 'CardProvisionModel' })
@ApiExtraModels(ApplePayProvisioningPayload)
export class CardProvisionResponse {
  @ApiProperty({ oneOf: [{ type: 'string' }, { $ref: getSchemaPath(ApplePayProvisioningPayload) }], description: "Apple Pay: the three fields Apple's PassKit takes; Google Pay and Samsung Pay: one opaque base64 string" })
  provisioning_payload!: string | ApplePayProvisioningPayload;
}

@ApiSchema({ name: 'AppleWebProvisioningJwsHeaderModel' })
export class AppleWebProvisioningJwsHeader {
  @ApiProperty() kid!: string;
}

@ApiSchema({ name: 'AppleWebProvisioningJwsModel' })
export class AppleWebProvisioningJws {
  @ApiProperty({ type: AppleWebProvisioningJwsHeader }) header!: AppleWebProvisioningJwsHeader;
  @ApiProperty() payload!: string;
  @ApiProperty() protected!: string;
  @ApiProperty() signature!: string;
}

@ApiSchema({ name: 'CardWebProvisionModel' })
export class CardWebProvisionResponse {
  @ApiPropertyOptional({ type: AppleWebProvisioningJws, description: 'Apple Pay only' }) jws?: AppleWebProvisioningJws;
  @ApiPropertyOptional({ description: 'Apple Pay only' }) state?: string;
  @ApiPropertyOptional({ description: 'Google Pay only' }) google_opc?: string;
  @ApiPropertyOptional({ description: 'Google Pay only' }) tsp_opc?: string;
}

/** Lithic's `tokenization.result` webhook body (TokenizationResultWebhookEvent): the wallet's request decided. */
export interface TokenizationResultBody {
  readonly event_type: 'tokenization.result';
  readonly account_token: string;
  readonly card_token: string;
  readonly created: string;
  readonly tokenization_token: string;
  readonly tokenization_result_details: {
    readonly issuer_decision: string;
    readonly tokenization_decline_reasons: string[];
    readonly tokenization_tfa_reasons: string[];
    readonly customer_decision: null;
    readonly rule_results: never[];
    readonly token_activated_date_time: string | null;
    readonly wallet_decision: null;
  };
}

/** Rendered from the decision's event alone: it names the card, the program and every reason. */
export function tokenizationResultBody({ data }: TokenizationDecided): TokenizationResultBody {
  return {
    event_type: 'tokenization.result',
    account_token: data.programToken,
    card_token: data.cardToken,
    created: data.at,
    tokenization_token: data.tokenizationToken,
    tokenization_result_details: {
      issuer_decision: data.outcome,
      tokenization_decline_reasons: [...data.declineReasons],
      tokenization_tfa_reasons: [...data.tfaReasons],
      customer_decision: null,
      rule_results: [],
      token_activated_date_time: data.outcome === 'APPROVED' ? data.at : null,
      // What the wallet recommended is the simulate's input, not kept apart from the outcome.
      wallet_decision: null,
    },
  };
}

/** Lithic's `tokenization.updated` webhook body (TokenizationUpdatedWebhookEvent): the token as a change left it. */
export interface TokenizationUpdatedBody {
  readonly event_type: 'tokenization.updated';
  readonly account_token: string;
  readonly card_token: string;
  readonly created: string;
  readonly tokenization: TokenizationResponse;
}

/** `created` is when the change happened: the token's `updated_at` as that change left it. */
export function tokenizationUpdatedBody(tokenization: ExistingTokenization): TokenizationUpdatedBody {
  return {
    event_type: 'tokenization.updated',
    account_token: tokenization.programToken,
    card_token: tokenization.cardToken,
    created: tokenization.updatedAt,
    tokenization: presentTokenization(tokenization),
  };
}
