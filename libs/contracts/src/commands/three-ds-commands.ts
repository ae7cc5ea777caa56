import type { CardExpiryCheck, ChallengeResponseResult, ThreeDSMerchant } from '@ledger/domain';
import { type CommandOrigin } from './command-origin';

/** Lithic's 3DS simulate: the card is named by its number, found by the transaction-service. */
export class SimulateThreeDSAuthenticationCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly pan: string,
    readonly merchant: ThreeDSMerchant,
    readonly transaction: { readonly amount: number; readonly currency: string },
    readonly cardExpiryCheck: CardExpiryCheck,
  ) {}
}

export class EnterThreeDSOtpCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly threeDSAuthenticationToken: string,
    readonly otp: string,
  ) {}
}

export class RespondToThreeDSChallengeCommand {
  constructor(
    readonly origin: CommandOrigin,
    readonly threeDSAuthenticationToken: string,
    readonly response: ChallengeResponseResult,
  ) {}
}
