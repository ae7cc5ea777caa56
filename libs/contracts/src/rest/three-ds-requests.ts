import { MAX_DESCRIPTOR_LENGTH } from './simulate-requests';
import { TokenField } from './token-field';
import { CentsField, NestedField, OneOfField, PatternField, TextField } from './value-fields';

/** Lithic's AuthenticationSimulateParams.Merchant. */
export class ThreeDSSimulateMerchant {
  @TextField(64, { notEmpty: 'merchant.id must not be empty', description: "The acceptor's id (an authorization's merchant_acceptor_id)" })
  id!: string;

  @PatternField(/^[A-Z]{3}$/, 'merchant.country must be a three-letter ISO 3166 alpha-3 code')
  country!: string;

  @PatternField(/^\d{4}$/, 'merchant.mcc must be a four-digit merchant category code')
  mcc!: string;

  @TextField(MAX_DESCRIPTOR_LENGTH, { notEmpty: 'merchant.name must not be empty', description: 'With the keyword CHALLENGE in it, the sandbox challenges the cardholder' })
  name!: string;
}

export class ThreeDSSimulateTransaction {
  @CentsField({ description: 'Amount to authenticate, in minor units of currency' })
  amount!: number;

  @PatternField(/^[A-Z]{3}$/, 'transaction.currency must be a three-letter ISO 4217 code')
  currency!: string;
}

/** POST /v1/three_ds_authentication/simulate (Lithic's AuthenticationSimulateParams). */
export class SimulateThreeDSAuthenticationRequest {
  @NestedField(() => ThreeDSSimulateMerchant)
  merchant!: ThreeDSSimulateMerchant;

  @PatternField(/^\d{16}$/, 'pan must be a 16-digit card number')
  pan!: string;

  @NestedField(() => ThreeDSSimulateTransaction)
  transaction!: ThreeDSSimulateTransaction;

  @OneOfField(['MATCH', 'MISMATCH', 'NOT_PRESENT'], { optional: true, default: 'MATCH', description: 'MISMATCH: the cardholder typed another expiry; the sandbox declines' })
  card_expiry_check?: 'MATCH' | 'MISMATCH' | 'NOT_PRESENT';
}

/** POST /v1/three_ds_decisioning/simulate/enter_otp. */
export class EnterThreeDSOtpRequest {
  @TokenField({ description: 'The authentication waiting for its challenge' })
  token!: string;

  @TextField(32, { notEmpty: 'otp must not be empty', description: 'The sandbox accepts 123456; any other OTP spends the single attempt and declines' })
  otp!: string;
}

/** POST /v1/three_ds_decisioning/challenge_response (Lithic's DecisioningChallengeResponseParams). */
export class ThreeDSChallengeResponseRequest {
  @TokenField({ description: 'The authentication waiting for its challenge' })
  token!: string;

  @OneOfField(['APPROVE', 'DECLINE_BY_CUSTOMER'])
  challenge_response!: 'APPROVE' | 'DECLINE_BY_CUSTOMER';
}

export class ThreeDSAuthenticationTokenParam {
  @TokenField()
  three_ds_authentication_token!: string;
}
