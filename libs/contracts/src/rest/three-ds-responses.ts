import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { type CardholderAuthentication, type ExistingThreeDSAuthentication, threeDSAuthenticationAfter, type ThreeDSAuthenticationEvent } from '@ledger/domain';

/** Lithic's ThreeDSAuthentication (`lithic/resources/three-ds/three-ds`), as far as a simulated authentication fills it. */

@ApiSchema({ name: 'ThreeDSMerchantRiskIndicatorModel' })
export class ThreeDSRiskIndicatorResponse {}

@ApiSchema({ name: 'ThreeDSMerchantModel' })
export class ThreeDSMerchantResponse {
  @ApiProperty({ type: String }) id!: string;
  @ApiProperty({ type: String }) country!: string;
  @ApiProperty({ type: String }) mcc!: string;
  @ApiProperty({ type: String }) name!: string;
  @ApiProperty({ type: ThreeDSRiskIndicatorResponse, description: 'Always empty: a simulation carries no risk indicators' }) risk_indicator!: ThreeDSRiskIndicatorResponse;
}

@ApiSchema({ name: 'ThreeDSCardholderModel' })
export class ThreeDSCardholderResponse {}

@ApiSchema({ name: 'ThreeDSTransactionModel' })
export class ThreeDSTransactionResponse {
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The amount in the card\'s currency; null unless the purchase is in USD' }) cardholder_amount!: number | null;
  @ApiProperty({ type: String }) currency!: string;
  @ApiProperty({ type: 'integer' }) currency_exponent!: number;
  @ApiProperty({ format: 'date-time' }) date_time!: string;
  @ApiProperty({ enum: ['GOODS_SERVICE_PURCHASE'] }) type!: 'GOODS_SERVICE_PURCHASE';
}

@ApiSchema({ name: 'ThreeDSChallengeMetadataModel' })
export class ThreeDSChallengeMetadataResponse {
  @ApiProperty({ enum: ['SMS_OTP', 'OUT_OF_BAND'] }) method_type!: 'SMS_OTP' | 'OUT_OF_BAND';
  @ApiProperty({ enum: ['SUCCESS', 'PENDING', 'ATTEMPTS_EXCEEDED', 'CANCELED_OOB'] }) status!: 'SUCCESS' | 'PENDING' | 'ATTEMPTS_EXCEEDED' | 'CANCELED_OOB';
  @ApiProperty({ type: String, nullable: true, description: 'Always null: the sandbox sends no SMS' }) phone_number!: null;
}

@ApiSchema({ name: 'ThreeDSAuthenticationModel' })
export class ThreeDSAuthenticationResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
  @ApiProperty({ type: String, nullable: true, enum: ['CREDIT', 'DEBIT', 'NOT_APPLICABLE'], description: 'Always null: not known of a simulation' }) account_type!: null;
  @ApiProperty({ enum: ['DECLINE', 'SUCCESS', 'PENDING_CHALLENGE'] }) authentication_result!: 'DECLINE' | 'SUCCESS' | 'PENDING_CHALLENGE';
  @ApiProperty({ enum: ['MATCH', 'MISMATCH', 'NOT_PRESENT'] }) card_expiry_check!: 'MATCH' | 'MISMATCH' | 'NOT_PRESENT';
  @ApiProperty({ format: 'uuid' }) card_token!: string;
  @ApiProperty({ type: ThreeDSCardholderResponse, description: 'Always empty: a simulation carries no cardholder data' }) cardholder!: ThreeDSCardholderResponse;
  @ApiProperty({ enum: ['BROWSER'], description: 'A simulation is taken for a browser checkout' }) channel!: 'BROWSER';
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ type: ThreeDSMerchantResponse }) merchant!: ThreeDSMerchantResponse;
  @ApiProperty({ enum: ['PAYMENT_AUTHENTICATION'] }) message_category!: 'PAYMENT_AUTHENTICATION';
  @ApiProperty({ enum: ['NO_PREFERENCE'] }) three_ds_requestor_challenge_indicator!: 'NO_PREFERENCE';
  @ApiProperty({ enum: ['PAYMENT_TRANSACTION'] }) authentication_request_type!: 'PAYMENT_TRANSACTION';
  @ApiProperty({ type: ThreeDSChallengeMetadataResponse, nullable: true, description: 'Only when a challenge was asked for' }) challenge_metadata!: ThreeDSChallengeMetadataResponse | null;
  @ApiProperty({ enum: ['LITHIC', 'CUSTOMER', 'NO_CHALLENGE'] }) challenge_orchestrated_by!: 'LITHIC' | 'CUSTOMER' | 'NO_CHALLENGE';
  @ApiProperty({ enum: ['LITHIC_DEFAULT', 'CUSTOMER_ENDPOINT'] }) decision_made_by!: 'LITHIC_DEFAULT' | 'CUSTOMER_ENDPOINT';
  @ApiProperty({ type: ThreeDSTransactionResponse }) transaction!: ThreeDSTransactionResponse;
}

@ApiSchema({ name: 'ThreeDSSimulateModel' })
export class ThreeDSSimulateResponse {
  @ApiProperty({ format: 'uuid' }) token!: string;
}

/** Lithic's CardholderAuthentication on a transaction: the 3DS authentication its authorization named. */
@ApiSchema({ name: 'CardholderAuthenticationModel' })
export class CardholderAuthenticationResponse {
  @ApiProperty({ enum: ['FRICTIONLESS', 'CHALLENGE', 'NONE'] }) authentication_method!: 'FRICTIONLESS' | 'CHALLENGE' | 'NONE';
  @ApiProperty({ enum: ['ATTEMPTS', 'DECLINE', 'NONE', 'SUCCESS'] }) authentication_result!: 'ATTEMPTS' | 'DECLINE' | 'NONE' | 'SUCCESS';
  @ApiProperty({ enum: ['LITHIC_DEFAULT', 'CUSTOMER_ENDPOINT'] }) decision_made_by!: 'LITHIC_DEFAULT' | 'CUSTOMER_ENDPOINT';
  @ApiProperty({ enum: ['3DS_AUTHENTICATED', 'TOKEN_AUTHENTICATED', 'NONE'] }) liability_shift!: '3DS_AUTHENTICATED' | 'TOKEN_AUTHENTICATED' | 'NONE';
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) three_ds_authentication_token!: string | null;
}

/** Minor units of the ISO 4217 currencies with other than two; every other currency has two. */
const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = { JPY: 0, KRW: 0, BHD: 3, KWD: 3, JOD: 3, OMR: 3, TND: 3 };

export function presentThreeDSAuthentication(authentication: ExistingThreeDSAuthentication): ThreeDSAuthenticationResponse {
  const { challenge } = authentication;
  return {
    token: authentication.threeDSAuthenticationToken,
    account_type: null,
    authentication_result: authentication.result,
    card_expiry_check: authentication.cardExpiryCheck,
    card_token: authentication.cardToken,
    cardholder: {},
    channel: 'BROWSER',
    created: authentication.created,
    merchant: { ...authentication.merchant, risk_indicator: {} },
    message_category: 'PAYMENT_AUTHENTICATION',
    three_ds_requestor_challenge_indicator: 'NO_PREFERENCE',
    authentication_request_type: 'PAYMENT_TRANSACTION',
    challenge_metadata: challenge === null ? null : { method_type: challenge.method, status: challenge.status, phone_number: null },
    challenge_orchestrated_by: challenge === null ? 'NO_CHALLENGE' : challenge.orchestratedBy,
    decision_made_by: authentication.decisionMadeBy,
    transaction: {
      amount: authentication.amount,
      cardholder_amount: authentication.currency === 'USD' ? authentication.amount : null,
      currency: authentication.currency,
      currency_exponent: CURRENCY_EXPONENTS[authentication.currency] ?? 2,
      date_time: authentication.created,
      type: 'GOODS_SERVICE_PURCHASE',
    },
  };
}

/** The webhooks three_ds_authentication.created and .updated: the authentication as the event left it, with Lithic's event type. */
export type ThreeDSAuthenticationWebhookBody = ThreeDSAuthenticationResponse & { readonly event_type: 'three_ds_authentication.created' | 'three_ds_authentication.updated' };

export function threeDSAuthenticationWebhookBody(event: ThreeDSAuthenticationEvent): ThreeDSAuthenticationWebhookBody {
  const eventType = event.type === 'ThreeDSAuthenticationCreated' ? 'three_ds_authentication.created' : 'three_ds_authentication.updated';
  return { event_type: eventType, ...presentThreeDSAuthentication(threeDSAuthenticationAfter(event)) };
}

export function presentCardholderAuthentication(authentication: CardholderAuthentication): CardholderAuthenticationResponse {
  return {
    authentication_method: authentication.method,
    authentication_result: authentication.result,
    decision_made_by: authentication.decisionMadeBy,
    liability_shift: authentication.liabilityShift,
    three_ds_authentication_token: authentication.threeDSAuthenticationToken,
  };
}
